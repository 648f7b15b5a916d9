//go:build !linux

package main

import "os"

// maxRSSMiB is 0 where the peak resident set size is not measured: the
// figures the benchmarks report are taken on Linux.
func maxRSSMiB(*os.ProcessState) float64 { return 0 }
