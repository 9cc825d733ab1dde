// Package catalog holds products and their SKUs: the items orders and
// promotions refer to. Products and SKUs are addressed by id or by source id;
// deleting moves them to the bin unless forced.
//
// The package declares the storage port it consumes ([Store]) and its
// [Service] holds every rule, so all stores behave the same.
package catalog
