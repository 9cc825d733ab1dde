package project

import (
	"context"
	"time"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// ServiceStore is the port of Service: projects, what a new project is
// made with (its built-in shipping product, its first key pair and the
// grant of a management key), its users, and the customers CheckClient
// looks up.
type ServiceStore interface {
	Store
	UserStore
	catalog.Store
	auth.Store
	customer.Store // the customers a client-side request would create (CheckClient)
}

// Service is the project use cases of the management API.
type Service struct {
	store    ServiceStore
	tx       promotype.TxFunc[ServiceStore]
	env      promotype.Env
	onDelete []func(projectID string)
}

// NewService returns a project service.
func NewService(store ServiceStore, tx promotype.TxFunc[ServiceStore], env promotype.Env) *Service {
	return &Service{store: store, tx: tx, env: env}
}

// Create creates a project with its built-in resources (the shipping
// product) in one transaction.
func (s *Service) Create(ctx context.Context, in Params) (*Project, error) {
	p, err := New(in, s.env)
	if err != nil {
		return nil, err
	}
	if err := s.tx(ctx, func(ctx context.Context, tx ServiceStore) error { return insert(ctx, tx, p) }); err != nil {
		return nil, err
	}
	return p, nil
}

// Provision creates a project with its built-in resources and an
// application key pair, and grants it to the management key
// managementKeyID when that is not empty, all in one transaction. It
// returns the key pair in clear text: its secret is not kept.
func (s *Service) Provision(ctx context.Context, in Params, app auth.KeyParams, managementKeyID string) (*Project, auth.Credentials, error) {
	p, err := New(in, s.env)
	if err != nil {
		return nil, auth.Credentials{}, err
	}
	key, creds, err := auth.NewAppKey(p.ID, app, p.CreatedAt)
	if err != nil {
		return nil, auth.Credentials{}, err
	}
	err = s.tx(ctx, func(ctx context.Context, tx ServiceStore) error {
		if err := insert(ctx, tx, p); err != nil {
			return err
		}
		if err := tx.InsertAppKey(ctx, key); err != nil {
			return err
		}
		if managementKeyID == "" {
			return nil
		}
		return auth.Grant(ctx, tx, managementKeyID, p.ID)
	})
	if err != nil {
		return nil, auth.Credentials{}, err
	}
	return p, creds, nil
}

// insert stores project p and its built-in shipping product through tx.
func insert(ctx context.Context, tx ServiceStore, p *Project) error {
	if err := tx.InsertProject(ctx, p); err != nil {
		return err
	}
	return tx.InsertProduct(ctx, catalog.NewShipping(p.ID, p.CreatedAt))
}

// Get returns a project by id.
func (s *Service) Get(ctx context.Context, id string) (*Project, error) {
	p, err := s.store.GetProject(ctx, id)
	if err != nil {
		return nil, err
	}
	p.Object = "project"
	return p, nil
}

// TimeZone returns the time zone validity windows of the project are read
// in.
func (s *Service) TimeZone(ctx context.Context, projectID string) (*time.Location, error) {
	p, err := s.store.GetProject(ctx, projectID)
	if err != nil {
		return nil, err
	}
	return p.Location(), nil
}
