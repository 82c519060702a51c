/// A small, fast, seeded random number generator (SplitMix64): the same seed gives the same
/// sequence on every machine, which `pipeline generate` and the tests rely on.
/// https://prng.di.unimi.it/splitmix64.c
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in [0, 1) with 53 random bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform value in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// A normally distributed value (Box–Muller; one of the pair is discarded for simplicity).
    public mutating func normal(mean: Double = 0, deviation: Double = 1) -> Double {
        let u1 = 1 - unit()  // (0, 1], so the logarithm is finite
        let u2 = unit()
        return mean + deviation * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// `true` with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
