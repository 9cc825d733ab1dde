// Package startstop is the one start / stop / wake base of the engine's
// background services (the async runner, the webhook dispatcher): Start is
// idempotent, Stop waits for the loops to end, Wake is a signal that never
// blocks, and Loop and Backoff are the poll loop and the error backoff they
// share. It follows the startstop base of riverqueue/river.
package startstop
