-- Each live worker process writes its row every few seconds (lib/health/mutations.ts); /api/health reads
-- them to say whether anything is serving the queue. A worker removes its row when it stops cleanly; rows
-- of workers that died are pruned a day later.
CREATE TABLE "worker_heartbeats" (
    "id" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "beat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "worker_heartbeats_pkey" PRIMARY KEY ("id")
);
