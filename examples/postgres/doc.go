// Command postgres runs the promo engine in process over PostgreSQL (the
// bunstore store): it migrates the database named by PROMO_DATABASE_URL,
// then creates a project, a product, a SKU, rewards and a location and
// prints each result.
//
//	PROMO_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test?sslmode=disable go run ./examples/postgres
//
// The steps are in ../internal/tour/tour.go; each run makes a new project.
package main
