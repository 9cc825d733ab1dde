package project

import (
	"slices"
	"unicode/utf8"

	"github.com/promoengine/promo/promotype"
)

// ClientSettings are a project's client-side settings (the OpenAPI's
// project fields client_*): the domains client requests may come from and
// what the client-side API may do. The client-side API enforces
// RedeemEnabled (POST /client/v1/redemptions), CreateCustomerEnabled (a
// client redemption or event naming a customer not stored yet) and
// LoyaltyEventsEnabled (a client event with loyalty or referral data);
// the engine serves no client-side publication, voucher listing or
// expiration change, so the other three are kept and shown only.
type ClientSettings struct {
	TrustedDomains                  []string `json:"client_trusted_domains"`
	RedeemEnabled                   bool     `json:"client_redeem_enabled"`
	PublishEnabled                  bool     `json:"client_publish_enabled"`
	ListVouchersEnabled             bool     `json:"client_list_vouchers_enabled"`
	CreateCustomerEnabled           bool     `json:"client_create_customer_enabled"`
	LoyaltyEventsEnabled            bool     `json:"client_loyalty_events_enabled"`
	SetVoucherExpirationDateEnabled bool     `json:"client_set_voucher_expiration_date_enabled"`
}

// DefaultClientSettings are the settings of a project that set none: what
// the client-side API did before the settings existed (redemptions,
// customers created by them, loyalty and referral events) stays enabled;
// what it does not serve is disabled.
func DefaultClientSettings() ClientSettings {
	return ClientSettings{TrustedDomains: []string{}, RedeemEnabled: true, CreateCustomerEnabled: true, LoyaltyEventsEnabled: true}
}

// Clone returns a deep copy.
func (s ClientSettings) Clone() ClientSettings {
	s.TrustedDomains = slices.Clone(s.TrustedDomains)
	return s
}

// ClientSettingsParams are the client_* fields of a project create or
// update; a field left out keeps its value (the default on create).
type ClientSettingsParams struct {
	TrustedDomains                  []string `json:"client_trusted_domains"`
	RedeemEnabled                   *bool    `json:"client_redeem_enabled"`
	PublishEnabled                  *bool    `json:"client_publish_enabled"`
	ListVouchersEnabled             *bool    `json:"client_list_vouchers_enabled"`
	CreateCustomerEnabled           *bool    `json:"client_create_customer_enabled"`
	LoyaltyEventsEnabled            *bool    `json:"client_loyalty_events_enabled"`
	SetVoucherExpirationDateEnabled *bool    `json:"client_set_voucher_expiration_date_enabled"`
}

// Limits of client_trusted_domains.
const (
	maxTrustedDomains     = 100
	maxTrustedDomainChars = 500
)

// check refuses a trusted domain list that is too long or holds an empty
// or too long entry.
func (p ClientSettingsParams) check() error {
	if len(p.TrustedDomains) > maxTrustedDomains {
		return promotype.InvalidPayload("Property .client_trusted_domains must NOT have more than %d items", maxTrustedDomains)
	}
	for i, d := range p.TrustedDomains {
		if d == "" || utf8.RuneCountInString(d) > maxTrustedDomainChars {
			return promotype.InvalidPayload("Property .client_trusted_domains[%d] must have between 1 and %d characters", i, maxTrustedDomainChars)
		}
	}
	return nil
}

// apply sets the fields p gives on s.
func (p ClientSettingsParams) apply(s *ClientSettings) {
	if p.TrustedDomains != nil {
		s.TrustedDomains = slices.Clone(p.TrustedDomains)
	}
	for _, f := range []struct {
		in  *bool
		out *bool
	}{
		{p.RedeemEnabled, &s.RedeemEnabled}, {p.PublishEnabled, &s.PublishEnabled},
		{p.ListVouchersEnabled, &s.ListVouchersEnabled}, {p.CreateCustomerEnabled, &s.CreateCustomerEnabled},
		{p.LoyaltyEventsEnabled, &s.LoyaltyEventsEnabled}, {p.SetVoucherExpirationDateEnabled, &s.SetVoucherExpirationDateEnabled},
	} {
		if f.in != nil {
			*f.out = *f.in
		}
	}
}

// ClientDisabled is the error of a client-side request its project's
// settings do not allow: 403 forbidden naming the setting (the hosted
// service's answer is not documented; see docs/behaviour.md).
func ClientDisabled(setting, what string) error {
	return promotype.Forbidden("forbidden", "Forbidden", "%s is disabled in the project settings (%s)", what, setting)
}
