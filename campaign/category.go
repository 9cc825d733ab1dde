package campaign

import (
	"context"

	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
)

// UpdateCategory changes the name and hierarchy given (PUT
// /v1/categories/{categoryId}); ref is the category id or name. A name
// another category holds is a 409 duplicate_found.
func (s *Service) UpdateCategory(ctx context.Context, projectID, ref string, in CategoryParams) (*Category, error) {
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	var out *Category
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		c, err := promotype.Resolve(ctx, "category", ref, projectID, st.GetCategory, st.FindCategoryByName)
		if err != nil {
			return err
		}
		if in.Name != nil {
			c.Name = *in.Name
		}
		if in.Hierarchy != nil {
			c.Hierarchy = *in.Hierarchy
		}
		c.UpdatedAt = s.env.Clock.Now().Ptr()
		out = c
		return st.UpdateCategory(ctx, c)
	})
	if err != nil {
		return nil, err
	}
	s.env.Change(projectID) // the hierarchy orders stacked redeemables
	return out.Clone().normalize(), nil
}

// DeleteCategory deletes a category (DELETE /v1/categories/{categoryId});
// ref is the category id or name. The hosted service does not document
// deleting a category in use; we refuse it as a reward in use is refused:
// 400 resource_in_use while a live campaign, voucher, promotion tier or
// promotion stack names it (docs/architecture.md, "Categories").
func (s *Service) DeleteCategory(ctx context.Context, projectID, ref string) error {
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		c, err := promotype.Resolve(ctx, "category", ref, projectID, st.GetCategory, st.FindCategoryByName)
		if err != nil {
			return err
		}
		used, err := st.CategoryInUse(ctx, projectID, c.ID)
		if err != nil {
			return err
		}
		if used {
			return promotype.BadRequest("resource_in_use", "Resource in use",
				"Resource category with id %s is in use and cannot be deleted", c.ID)
		}
		return st.DeleteCategory(ctx, projectID, c.ID)
	})
	if err != nil {
		return err
	}
	s.env.Change(projectID)
	return nil
}
