package promotype

// Env is what every domain service needs besides its store: the time and new ids.
type Env struct {
	Clock Clock
	IDs   IDGenerator
}

// DefaultEnv is the wall clock and crypto-random ids.
func DefaultEnv() Env { return Env{Clock: SystemClock{}, IDs: RandomIDs{}} }
