#if canImport(Glibc)
    internal import CAllocator
#endif

/// glibc's allocator, set up for a process that trains one user after another on several threads.
///
/// By default each thread's arena hands the free memory at its top back to the kernel once more than 128 KB
/// of it is free (`M_TRIM_THRESHOLD`), and a block above a threshold that starts at 128 KB is mapped on its own
/// and unmapped when freed (`M_MMAP_THRESHOLD`). A retrain allocates and frees every user's logs, design matrix
/// and scratch, a few hundred kilobytes: the next user then faults the same pages in again, zeroed by the
/// kernel, and each unmapping interrupts the other cores to flush their address translations. Keeping up to
/// `trimThreshold` free per arena, and mapping only blocks above `mmapThreshold` on their own, makes a retrain
/// faster and cuts its system time, for a little more peak resident memory, which stays flat in the number of
/// users (measured: docs/benchmarks.md).
public enum AllocatorTuning {
    /// Free memory an arena keeps at its top before giving it back.
    public static let trimThreshold = 64 << 20
    /// The smallest block mapped on its own: the largest glibc accepts on 64-bit systems (half its heap size).
    public static let mmapThreshold = 32 << 20

    /// Sets both thresholds, unless the environment tunes glibc's allocator itself (`GLIBC_TUNABLES` naming a
    /// `glibc.malloc` setting, or a `MALLOC_…` variable): an operator's setting stands. Call it first thing in
    /// `main`, before other threads allocate. Returns whether the thresholds were set.
    @discardableResult
    public static func keepFreedMemory(environment: [String: String]) -> Bool {
        if environment["GLIBC_TUNABLES"]?.contains("glibc.malloc.") == true
            || environment.keys.contains(where: { $0.hasPrefix("MALLOC_") })
        {
            return false
        }
        #if canImport(Glibc)
            return mallopt(M_TRIM_THRESHOLD, Int32(trimThreshold)) == 1
                && mallopt(M_MMAP_THRESHOLD, Int32(mmapThreshold)) == 1
        #else
            return false
        #endif
    }
}
