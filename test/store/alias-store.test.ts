/** Aliases (migration 9) on both backends: one per (channel, name), listed by name, deleted for good. */
import { expect, it } from 'vitest';
import { T0, describeStores } from './helpers.js';

describeStores((t) => {

  const web = { channelId: 'C1', name: 'web', command: 'server status $1', createdBy: 'U1', teamId: 'T1', createdAt: T0 };

  it('saves an alias and reads it back as saved', async () => {
    const store = t.open(t.file());
    const { record, created } = await store.aliases.add(web);
    expect(created).toBe(true);
    expect(record).toEqual({ channelId: 'C1', name: 'web', command: 'server status $1', createdBy: 'U1', teamId: 'T1', createdAt: T0 });
    expect(await store.aliases.get('C1', 'web')).toEqual(record);
    expect(await store.aliases.get('C1', 'WEB')).toEqual(record); // typed in capitals, found
    expect(await store.aliases.get('C2', 'web')).toBeUndefined(); // another channel's words are its own
  });

  it('keeps the first of two aliases with one name in a channel; another channel may reuse the name', async () => {
    const path = t.file();
    const store = t.open(path);
    const other = t.open(path); // a second replica
    const [a, b] = await Promise.all([store.aliases.add(web), other.aliases.add({ ...web, command: 'server ips $1', createdBy: 'U2' })]);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(a.record).toEqual(b.record);
    expect((await store.aliases.add({ ...web, channelId: 'C2', teamId: null })).created).toBe(true);
    expect(await t.count(path, 'aliases')).toBe(2);
  });

  it('lists a channel’s aliases by name, and deletes one for good', async () => {
    const path = t.file();
    const store = t.open(path);
    await store.aliases.add({ ...web, name: 'web-b' });
    await store.aliases.add({ ...web, name: 'db' });
    await store.aliases.add({ ...web, name: 'web' });
    await store.aliases.add({ ...web, channelId: 'C2', name: 'zzz' });
    expect((await store.aliases.list('C1')).map((a) => a.name)).toEqual(['db', 'web', 'web-b']);
    expect(await store.aliases.remove('C1', 'web')).toMatchObject({ name: 'web', createdBy: 'U1' });
    expect(await store.aliases.remove('C1', 'web')).toBeUndefined();
    expect((await store.aliases.list('C1')).map((a) => a.name)).toEqual(['db', 'web-b']);
    expect(await t.count(path, 'aliases')).toBe(3);
  });

  it('refuses a name that is not a lower-case word, and an empty command', async () => {
    const store = t.open(t.file());
    await expect(store.aliases.add({ ...web, name: 'Web' })).rejects.toThrow(/lower-case word/);
    await expect(store.aliases.add({ ...web, name: 'a b' })).rejects.toThrow(/lower-case word/);
    await expect(store.aliases.add({ ...web, command: '' })).rejects.toThrow(/command/);
    expect(await store.aliases.list('C1')).toEqual([]);
  });
});
