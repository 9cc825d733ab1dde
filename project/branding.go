package project

import (
	"context"

	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
)

// DefaultPermissionReminder is brand.permission_reminder when none is given.
const DefaultPermissionReminder = "You are receiving this email because you opted in at our website."

// Branding is the brand configuration of a project (at most one). Every
// group is present in responses, with its defaults.
type Branding struct {
	ID        string          `json:"id"`
	Brand     Brand           `json:"brand"`
	Address   Address         `json:"address"`
	Contact   Contact         `json:"contact"`
	Cockpits  Cockpits        `json:"cockpits"`
	CreatedAt promotype.Time  `json:"-"`
	UpdatedAt *promotype.Time `json:"-"`
	ProjectID string          `json:"-"`
}

// Brand is the brand group of a branding.
type Brand struct {
	Name               string  `json:"name"`
	PrivacyPolicyURL   *string `json:"privacy_policy_url"`
	TermsOfUseURL      *string `json:"terms_of_use_url"`
	PermissionReminder *string `json:"permission_reminder"`
	WebsiteURL         *string `json:"website_url"`
}

// Address is the address group of a branding.
type Address struct {
	Street  string  `json:"street"`
	City    string  `json:"city"`
	Postal  *string `json:"postal"`
	State   *string `json:"state"`
	Country string  `json:"country"`
}

// Contact is the contact group of a branding.
type Contact struct {
	Email string  `json:"email"`
	Phone *string `json:"phone"`
}

// Cockpits is the customer cockpit group of a branding.
type Cockpits struct {
	CampaignsOverviewEnabled        bool    `json:"campaigns_overview_enabled"`
	LoyaltyEnabled                  bool    `json:"loyalty_enabled"`
	GiftCardsEnabled                bool    `json:"gift_cards_enabled"`
	CouponsEnabled                  bool    `json:"coupons_enabled"`
	ReferralsEnabled                bool    `json:"referrals_enabled"`
	Theme                           string  `json:"theme"`
	UseCustomDoubleOptInRedirectURL bool    `json:"use_custom_double_opt_in_redirect_url"`
	CustomDoubleOptInRedirectURL    *string `json:"custom_double_opt_in_redirect_url"`
}

// Clone returns a deep copy.
func (b *Branding) Clone() *Branding {
	c := *b
	c.Brand.PrivacyPolicyURL = promotype.ClonePtr(b.Brand.PrivacyPolicyURL)
	c.Brand.TermsOfUseURL = promotype.ClonePtr(b.Brand.TermsOfUseURL)
	c.Brand.PermissionReminder = promotype.ClonePtr(b.Brand.PermissionReminder)
	c.Brand.WebsiteURL = promotype.ClonePtr(b.Brand.WebsiteURL)
	c.Address.Postal = promotype.ClonePtr(b.Address.Postal)
	c.Address.State = promotype.ClonePtr(b.Address.State)
	c.Contact.Phone = promotype.ClonePtr(b.Contact.Phone)
	c.Cockpits.CustomDoubleOptInRedirectURL = promotype.ClonePtr(b.Cockpits.CustomDoubleOptInRedirectURL)
	c.UpdatedAt = promotype.ClonePtr(b.UpdatedAt)
	return &c
}

// Field returns a filterable or orderable field of b.
func (b *Branding) Field(name string) promotype.Value {
	if name == "created_at" {
		return promotype.Value{Time: b.CreatedAt}
	}
	return promotype.Value{Null: true}
}

// BrandingParams is the body of a branding create (brand.name,
// address.street, city and country, contact.email required) or update (any
// subset; omitted fields stay).
type BrandingParams struct {
	Brand *struct {
		Name               *string `json:"name" validate:"omitempty,min=1,max=200"`
		PrivacyPolicyURL   *string `json:"privacy_policy_url" validate:"omitempty,max=2048,http_url"`
		TermsOfUseURL      *string `json:"terms_of_use_url" validate:"omitempty,max=2048,http_url"`
		PermissionReminder *string `json:"permission_reminder" validate:"omitempty,max=1000"`
		WebsiteURL         *string `json:"website_url" validate:"omitempty,max=2048,http_url"`
	} `json:"brand"`
	Address *struct {
		Street  *string `json:"street" validate:"omitempty,min=1,max=300"`
		City    *string `json:"city" validate:"omitempty,min=1,max=200"`
		Postal  *string `json:"postal" validate:"omitempty,max=50"`
		State   *string `json:"state" validate:"omitempty,max=200"`
		Country *string `json:"country" validate:"omitempty,min=1,max=200"`
	} `json:"address"`
	Contact *struct {
		Email *string `json:"email" validate:"omitempty,max=320,email"`
		Phone *string `json:"phone" validate:"omitempty,max=50"`
	} `json:"contact"`
	Cockpits *struct {
		CampaignsOverviewEnabled        *bool   `json:"campaigns_overview_enabled"`
		LoyaltyEnabled                  *bool   `json:"loyalty_enabled"`
		GiftCardsEnabled                *bool   `json:"gift_cards_enabled"`
		CouponsEnabled                  *bool   `json:"coupons_enabled"`
		ReferralsEnabled                *bool   `json:"referrals_enabled"`
		Theme                           *string `json:"theme" validate:"omitempty,oneof=blue dark-green default green grey orange purple red"`
		UseCustomDoubleOptInRedirectURL *bool   `json:"use_custom_double_opt_in_redirect_url"`
		CustomDoubleOptInRedirectURL    *string `json:"custom_double_opt_in_redirect_url" validate:"omitempty,max=2048,http_url"`
	} `json:"cockpits"`
}

func set[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

func setPtr[T any](dst **T, src *T) {
	if src != nil {
		*dst = promotype.ClonePtr(src)
	}
}

func (p BrandingParams) apply(b *Branding) {
	if g := p.Brand; g != nil {
		set(&b.Brand.Name, g.Name)
		setPtr(&b.Brand.PrivacyPolicyURL, g.PrivacyPolicyURL)
		setPtr(&b.Brand.TermsOfUseURL, g.TermsOfUseURL)
		setPtr(&b.Brand.PermissionReminder, g.PermissionReminder)
		setPtr(&b.Brand.WebsiteURL, g.WebsiteURL)
	}
	if g := p.Address; g != nil {
		set(&b.Address.Street, g.Street)
		set(&b.Address.City, g.City)
		setPtr(&b.Address.Postal, g.Postal)
		setPtr(&b.Address.State, g.State)
		set(&b.Address.Country, g.Country)
	}
	if g := p.Contact; g != nil {
		set(&b.Contact.Email, g.Email)
		setPtr(&b.Contact.Phone, g.Phone)
	}
	if g := p.Cockpits; g != nil {
		c := &b.Cockpits
		set(&c.CampaignsOverviewEnabled, g.CampaignsOverviewEnabled)
		set(&c.LoyaltyEnabled, g.LoyaltyEnabled)
		set(&c.GiftCardsEnabled, g.GiftCardsEnabled)
		set(&c.CouponsEnabled, g.CouponsEnabled)
		set(&c.ReferralsEnabled, g.ReferralsEnabled)
		set(&c.Theme, g.Theme)
		set(&c.UseCustomDoubleOptInRedirectURL, g.UseCustomDoubleOptInRedirectURL)
		setPtr(&c.CustomDoubleOptInRedirectURL, g.CustomDoubleOptInRedirectURL)
	}
}

// ErrBrandingExists is the 409 of a second branding in a project.
func ErrBrandingExists() error {
	return promotype.Conflict("branding_exist", "Branding already exists", "Cannot exist more than one branding for given project")
}

// BrandingService is the branding use cases.
type BrandingService struct {
	store SettingsStore
	env   promotype.Env
}

// NewBrandingService returns a branding service.
func NewBrandingService(store SettingsStore, env promotype.Env) *BrandingService {
	return &BrandingService{store: store, env: env}
}

// Create stores the project's branding (409 branding_exist for a second).
func (s *BrandingService) Create(ctx context.Context, projectID string, in BrandingParams) (*Branding, error) {
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	switch {
	case in.Brand == nil:
		return nil, promotype.InvalidPayload("Payload must have required property 'brand'")
	case in.Brand.Name == nil:
		return nil, promotype.InvalidPayload("Property .brand must have required property 'name'")
	case in.Address == nil:
		return nil, promotype.InvalidPayload("Payload must have required property 'address'")
	case in.Address.Street == nil:
		return nil, promotype.InvalidPayload("Property .address must have required property 'street'")
	case in.Address.City == nil:
		return nil, promotype.InvalidPayload("Property .address must have required property 'city'")
	case in.Address.Country == nil:
		return nil, promotype.InvalidPayload("Property .address must have required property 'country'")
	case in.Contact == nil:
		return nil, promotype.InvalidPayload("Payload must have required property 'contact'")
	case in.Contact.Email == nil:
		return nil, promotype.InvalidPayload("Property .contact must have required property 'email'")
	}
	reminder := DefaultPermissionReminder
	b := &Branding{
		ID:        s.env.IDs.NewID(promotype.PrefixBranding),
		Brand:     Brand{PermissionReminder: &reminder},
		Cockpits:  Cockpits{LoyaltyEnabled: true, GiftCardsEnabled: true, CouponsEnabled: true, ReferralsEnabled: true, Theme: "default"},
		CreatedAt: s.env.Clock.Now(),
		ProjectID: projectID,
	}
	in.apply(b)
	if err := s.store.InsertBranding(ctx, b); err != nil {
		return nil, err
	}
	return b.Clone(), nil
}

// Get returns the branding by id.
func (s *BrandingService) Get(ctx context.Context, projectID, id string) (*Branding, error) {
	return s.store.GetBranding(ctx, projectID, id)
}

// List lists the project's branding (at most one).
func (s *BrandingService) List(ctx context.Context, projectID string, params promotype.ListParams) (*promotype.List[*Branding], error) {
	return promotype.ListWith(ctx, s.store.ListBrandings, projectID, params, SettingsListSpec, s.env.Clock.Now(), nil)
}

// Update changes the fields given.
func (s *BrandingService) Update(ctx context.Context, projectID, id string, in BrandingParams) (*Branding, error) {
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	b, err := s.store.GetBranding(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	in.apply(b)
	b.UpdatedAt = s.env.Clock.Now().Ptr()
	if err := s.store.UpdateBranding(ctx, b); err != nil {
		return nil, err
	}
	return b.Clone(), nil
}

// Delete removes the branding.
func (s *BrandingService) Delete(ctx context.Context, projectID, id string) error {
	return s.store.DeleteBranding(ctx, projectID, id)
}
