package market

import "testing"

// loopCPU runs f in b.Loop and reports cpu-ns/op besides the wall time:
// the CPU time of the whole process (user + system, every thread: the
// collector's work included) per iteration. On a shared, loaded machine
// wall time also counts the time spent waiting for a core; CPU time counts
// the work.
func loopCPU(b *testing.B, f func()) {
	b.Helper()
	b.ReportAllocs()
	start := processCPU()
	for b.Loop() {
		f()
	}
	if cpu := processCPU() - start; cpu > 0 { // 0 where the platform does not say
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	}
}
