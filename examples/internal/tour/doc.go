// Package tour is the walk through the engine that the embedded and postgres
// examples share: it creates a project, a product with a SKU, two rewards
// and a location, then reads them back, printing each result as the REST API
// would return it.
package tour
