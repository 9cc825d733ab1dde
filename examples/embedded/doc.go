// Command embedded runs the promo engine in process, with no HTTP: it
// creates a project, a product, a SKU, rewards and a location over the
// memory store and prints each result.
//
//	go run ./examples/embedded
//
// The steps are in ../internal/tour/tour.go.
package main
