// Package webhook holds webhook configurations, the catalogue of event
// names, the transactional outbox, the delivery envelope and its signature,
// the target-URL policy and the retry schedule of delivery.
package webhook
