/** An empty program under the same loader: its RSS is the runtime's floor before any bot code. */
await new Promise((r) => setTimeout(r, 200));
process.send?.({ ok: true, result: { rssMb: process.memoryUsage().rss / (1024 * 1024) } }, () => process.exit(0));
