// Package campaign holds campaigns, promotion tiers, stacks, validation rules
// and rewards, and the pure promotion evaluation over them.
//
// It declares the storage port it consumes ([Store]); the [RewardService]
// (and the services that join it as the engine grows) hold every rule.
package campaign
