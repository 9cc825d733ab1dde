// Package storagetest is the conformance suite every storage.Store must pass:
// one subtest per port plus the cross-cutting contract of package storage
// (commit visibility, rollback on error and panic, not-found and duplicate
// errors, aliasing, list order/limit/total/has_more and filters, project
// isolation, concurrency). Third-party stores can run it too:
//
//	func TestConformance(t *testing.T) { storagetest.Run(t, newMyStore) }
package storagetest
