// Package archtest holds the test that enforces the import rules of
// docs/architecture.md: the kernel stays a leaf, domain
// packages import only the lower domain packages the design allows, the
// root facade never imports a store implementation or the HTTP adapter, and
// the adapter never imports storage. The package has no code of its own.
package archtest
