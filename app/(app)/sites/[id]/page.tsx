// One site: its runs over time (trends and the runs table), the change feed, schedules, webhooks and
// settings, as tabs (`?tab=`). Everything is read in the browser and polled while a run of the site is going.
import type { Metadata } from 'next';
import { requirePageActor } from '@/lib/auth/page';
import { SiteView } from './_components/frame/site-view';

export const metadata: Metadata = { title: 'Site' };

export default async function SitePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requirePageActor();
  return <SiteView id={id} />;
}
