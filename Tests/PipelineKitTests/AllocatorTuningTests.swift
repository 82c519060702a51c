import CAllocator
import PipelineKit
import Testing

@Suite("glibc's allocator kept from unmapping a retrain's memory")
struct AllocatorTuningTests {
    /// Without it glibc maps a block this size on its own (its default threshold is 128 KB, raised only by freeing
    /// larger mapped blocks).
    @Test("after keepFreedMemory a 16 MB block comes from the arena, not from a mapping of its own")
    func keepsBlocksInTheArena() throws {
        #expect(AllocatorTuning.keepFreedMemory(environment: [:]))
        let mapped = mallinfo2().hblks
        let block = try #require(malloc(16 << 20))
        // Another test freeing a mapped block meanwhile can only lower the count.
        #expect(mallinfo2().hblks <= mapped)
        free(block)
    }

    @Test(
        "an operator's own allocator settings stand",
        arguments: [
            ["GLIBC_TUNABLES": "glibc.malloc.trim_threshold=131072"], ["MALLOC_TRIM_THRESHOLD_": "131072"],
            ["MALLOC_ARENA_MAX": "2"],
        ])
    func operatorSettingsStand(environment: [String: String]) {
        #expect(!AllocatorTuning.keepFreedMemory(environment: environment))
    }
}
