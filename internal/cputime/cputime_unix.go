//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Used is the CPU (user + system) the process has used so far.
func Used() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
