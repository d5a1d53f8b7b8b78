export function createLimiter(max) {
    let running = 0;
    let peak = 0;
    const queue = [];
    const release = () => {
        running--;
        queue.shift()?.();
    };
    return {
        async run(task) {
            if (running >= max)
                await new Promise((resolve) => queue.push(resolve));
            running++;
            peak = Math.max(peak, running);
            try {
                return await task();
            }
            finally {
                release();
            }
        },
        active: () => running,
        peak: () => peak,
    };
}
//# sourceMappingURL=limit.js.map