// Package async holds async actions: long work (generating a campaign's
// codes, importing vouchers, bulk updates, exports) recorded in the
// transaction of the request that starts it, then carried out in chunks
// by a runner, which saves its progress with each chunk and resumes after
// a crash from the last one.
//
// An [Action] goes ENQUEUED, IN_PROGRESS, then DONE or FAILED, with a
// Progress from 0 to 100 and, once ended, a Result (DecodeResult reads
// it). The [Service] (Engine.AsyncActions()) reads actions (Get, List),
// waits for one to end (Wait), and runs them: Engine.StartAsyncRunner
// starts the background [Runner] (any number of processes over one store
// share the work through leases), RunPending runs what is pending in the
// calling goroutine (tests, scripts).
//
//	if err := eng.StartAsyncRunner(ctx, async.Config{}); err != nil { ... }
//	c, err := eng.Campaigns().Create(ctx, projectID, params)  // vouchers_count 1000
//	a, err := eng.AsyncActions().Wait(ctx, projectID, c.AsyncActionID)
//	// a.Status is DONE (or FAILED, with the reason in a.Result)
//
// Packages that start actions declare typed job arguments ([Args]) and
// register a [Worker] per kind in a [Registry]; [RunChunks] is the chunk
// loop with its checkpoint.
package async
