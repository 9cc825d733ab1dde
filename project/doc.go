// Package project holds projects, the unit of isolation: every resource
// (campaign, voucher, customer, order, ...) belongs to one project, and
// another project's resource answers as missing. Around them: metadata
// schemas, custom event schemas, custom events, branding, client-side
// settings and the project users of the management API.
//
// The services, as an engine hands them out:
//
//   - [Service] (Engine.Projects()): Create, Get, List, Update, Delete a
//     [Project] (its time zone is the one validity windows use);
//     Provision creates one with its key pairs.
//   - [MetadataSchemaService] (Engine.MetadataSchemas()): the allowed
//     metadata of each kind of object; metadata breaking a schema is 400.
//   - [CustomEventSchemaService] and [CustomEventService]
//     (Engine.CustomEventSchemas(), Engine.CustomEvents()): Track records a
//     customer's custom event, which loyalty earning rules may reward.
//   - [BrandingService] (Engine.Branding()).
//
// Every call takes the project's id:
//
//	p, err := eng.Projects().Create(ctx, project.Params{Name: "shop", TimeZone: "Europe/Warsaw"})
//	// every other call takes p.ID as its projectID
package project
