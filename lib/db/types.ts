// Database types that code outside lib/db may name (in signatures) without importing the driver.
import type pg from 'pg';

/** One connection of the pool, inside a transaction where a caller hands it over. */
export type DbClient = pg.PoolClient;
