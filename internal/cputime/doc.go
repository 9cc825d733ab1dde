// Package cputime measures the CPU the process has used, for benchmarks
// that report CPU per operation (cpu-ns/op): a figure other processes
// loading the machine distort far less than wall time.
package cputime
