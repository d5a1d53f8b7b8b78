/**
 * Provider catalog data (locations, subnets, plans, OS and worker templates). Shared by the
 * seeded and the empty account: an empty account still sees what it could order.
 */
import { hostAddress } from './ip-pool.js';
import type { LocationState, OsTemplate, PlanState, SubnetState } from './state.js';
import type { WorkerTemplate } from '../cloud-api/schemas.js';

const GB = 1024 ** 3;
const TB = 1024 ** 4;

export function seedLocations(): LocationState[] {
  return [
    { id: 1, name: 'Amsterdam', shortCode: 'AMS', description: 'Amsterdam, Netherlands', openForOrdering: true, workerLocation: true, workersOutOfStock: false },
    { id: 2, name: 'Frankfurt', shortCode: 'FRA', description: 'Frankfurt, Germany', openForOrdering: true, workerLocation: true, workersOutOfStock: false },
    { id: 3, name: 'New York', shortCode: 'NYC', description: 'New York, United States', openForOrdering: true, workerLocation: true, workersOutOfStock: true },
    // Announced but not open: GET /plans?location_id=4 is empty (spec "Plans and locations").
    { id: 4, name: 'Singapore', shortCode: 'SIN', description: 'Singapore (coming soon)', openForOrdering: false, workerLocation: false, workersOutOfStock: true },
  ];
}

function subnet(
  id: string,
  locationId: number,
  type: 'ipv4' | 'ipv6',
  network: string,
  prefix: number,
  size: number,
  hourlyPrice: number,
): SubnetState {
  const gateway = hostAddress({ network }, -1);
  return { id, locationId, type, network, prefix, gateway, hourlyPrice, size, taken: [] };
}

/** Marks hosts [from, to) as used by other customers of the provider. */
export function takeForeign(s: SubnetState, from: number, to: number): void {
  for (let n = from; n < to; n++) s.taken.push(hostAddress(s, n));
}

export function seedSubnets(all: boolean): SubnetState[] {
  const ams1 = subnet('sub-ams-1', 1, 'ipv4', '185.10.20.0', 24, 253, 0.0065);
  if (!all) return [ams1];
  takeForeign(ams1, 98, 198); // .100–.199
  const ams6 = subnet('sub-ams-2', 1, 'ipv6', '2a0c:8c0:1::', 64, 4094, 0.0014);
  const fra1 = subnet('sub-fra-1', 2, 'ipv4', '45.80.12.0', 24, 253, 0.007);
  takeForeign(fra1, 0, 28); // .2–.29
  // A /29 whose five hosts are all in use: reserving from it answers SUBNET_EXHAUSTED.
  const fra2 = subnet('sub-fra-2', 2, 'ipv4', '45.80.13.0', 29, 5, 0.007);
  takeForeign(fra2, 0, 5);
  const nyc1 = subnet('sub-nyc-1', 3, 'ipv4', '104.20.30.0', 24, 253, 0.0075);
  return [ams1, ams6, fra1, fra2, nyc1];
}

function plan(
  id: number,
  name: string,
  cpu: number,
  memoryGb: number,
  disk: number,
  monthlyPrice: number,
  backupLimit: number,
  extra: Partial<PlanState> = {},
): PlanState {
  return {
    id,
    name,
    cpu,
    memory: memoryGb * GB,
    disk,
    bandwidthLimit: (cpu >= 4 ? 20 : 10) * TB,
    monthlyPrice,
    hourlyPrice: Math.round((monthlyPrice / 730) * 10_000) / 10_000,
    backupPrice: Math.round(monthlyPrice * 20) / 100,
    backupLimit,
    locationId: null,
    hidden: false,
    outOfStockAt: [],
    ...extra,
  };
}

/** 19 visible plans (two pages of 15), one hidden, two location-bound. */
export function seedPlans(): PlanState[] {
  return [
    plan(1, 'Cloud XS', 1, 1, 20 * GB, 3.5, 2),
    plan(2, 'Cloud S', 1, 2, 40 * GB, 4.5, 3),
    plan(3, 'Cloud M', 2, 4, 80 * GB, 8.9, 7),
    plan(4, 'Cloud L', 4, 8, 160 * GB, 16.9, 20),
    plan(5, 'Cloud XL', 8, 16, 320 * GB, 32.9, 20),
    plan(6, 'Cloud 2XL', 12, 32, 640 * GB, 64.9, 30),
    plan(7, 'Cloud 3XL', 16, 64, 960 * GB, 119.9, 30, { outOfStockAt: [2] }),
    plan(8, 'Storage S', 1, 2, 500 * GB, 9.9, 3),
    plan(9, 'Storage M', 2, 4, 1 * TB, 17.9, 7),
    plan(10, 'Storage L', 4, 8, 2 * TB, 34.9, 14),
    plan(11, 'CPU-Optimized 2', 2, 4, 60 * GB, 14.9, 7),
    plan(12, 'CPU-Optimized 4', 4, 8, 120 * GB, 28.9, 14),
    plan(13, 'CPU-Optimized 8', 8, 16, 240 * GB, 56.9, 14),
    plan(14, 'Memory 16', 2, 16, 100 * GB, 24.5, 3),
    plan(15, 'Memory 32', 4, 32, 200 * GB, 46.5, 7),
    plan(16, 'Legacy 512', 1, 1, 10 * GB, 2.5, 1, { hidden: true }),
    plan(17, 'AMS Dedicated 4', 4, 16, 250 * GB, 39.9, 14, { locationId: 1 }),
    plan(18, 'AMS GPU Lite', 8, 32, 500 * GB, 149.0, 14, { locationId: 1, outOfStockAt: [1] }),
    plan(19, 'FRA Storage XL', 4, 16, 4 * TB, 59.9, 14, { locationId: 2 }),
    plan(20, 'NYC Edge S', 1, 2, 40 * GB, 5.5, 3, { locationId: 3 }),
  ];
}

export function seedOsTemplates(): OsTemplate[] {
  return [
    { slug: 'ubuntu-24.04', name: 'Ubuntu 24.04 LTS', group_name: 'Ubuntu' },
    { slug: 'ubuntu-22.04', name: 'Ubuntu 22.04 LTS', group_name: 'Ubuntu' },
    { slug: 'debian-12', name: 'Debian 12 (Bookworm)', group_name: 'Debian' },
    { slug: 'debian-11', name: 'Debian 11 (Bullseye)', group_name: 'Debian' },
    { slug: 'almalinux-9', name: 'AlmaLinux 9', group_name: 'AlmaLinux' },
    { slug: 'rocky-9', name: 'Rocky Linux 9', group_name: 'Rocky Linux' },
    { slug: 'windows-2022', name: 'Windows Server 2022', group_name: 'Windows' },
  ];
}

/** Entries referenced by id from `git_repository` for `template` / `database` sources. */
export function seedWorkerTemplates(): WorkerTemplate[] {
  return [
    { id: 'tpl-nextjs', name: 'Next.js', type: 'template', description: 'Next.js starter with server rendering' },
    { id: 'tpl-astro', name: 'Astro', type: 'template', description: 'Static Astro site' },
    { id: 'tpl-laravel', name: 'Laravel', type: 'template', description: 'Laravel 11 application' },
    { id: 'tpl-express', name: 'Express', type: 'template', description: 'Node.js Express API' },
    { id: 'db-postgresql-16', name: 'PostgreSQL 16', type: 'database', description: 'PostgreSQL 16 database' },
    { id: 'db-mysql-8', name: 'MySQL 8.4', type: 'database', description: 'MySQL 8.4 LTS database' },
    { id: 'db-redis-7', name: 'Redis 7', type: 'database', description: 'Redis 7 key-value store' },
  ];
}
