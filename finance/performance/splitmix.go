package performance

// SplitMix64 (Steele, Lea and Flood 2014), the generator of the Monte
// Carlo paths and the bootstrap resamples: state += splitMixIncrement, then
// output splitMix(state).

// splitMixIncrement is the SplitMix64 increment (2^64/φ, odd).
const splitMixIncrement = 0x9e3779b97f4a7c15

// splitMix is the SplitMix64 output function (Stafford's variant 13).
func splitMix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
