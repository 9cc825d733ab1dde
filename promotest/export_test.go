package promotest

// SetTB makes h report to tb (for the tests of the assertions' failures).
func SetTB(h *Harness, tb TB) { h.tb = tb }
