//! The server's request checks written into `/openapi.json`, from the texts the checks use.
//!
//! utoipa's attributes take only literal patterns, and JSON Schema cannot state a
//! rule between two fields through them: this modifier puts the patterns of
//! patterns.rs on their fields, closes the tagged-enum bodies, and states the
//! free-handicap rule, so that the document and the server cannot drift apart.

use serde_json::Value;
use utoipa::Modify;
use utoipa::openapi::schema::{
    AdditionalProperties, AllOfBuilder, AnyOfBuilder, ObjectBuilder, Schema, Type,
};
use utoipa::openapi::{OpenApi, RefOr};

use super::patterns;

/// Writes every constraint of the server's checks into the document.
pub(crate) struct RequestConstraints;

impl Modify for RequestConstraints {
    fn modify(&self, openapi: &mut OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let schemas = &mut components.schemas;
        set_pattern(schemas.get_mut("PointName"), patterns::POINT);
        set_pattern(schemas.get_mut("BlockMoveName"), patterns::POINT_OR_PASS);
        if let Some(RefOr::T(Schema::Object(body))) = schemas.get_mut("ResultBody") {
            set_pattern(body.properties.get_mut("result"), &patterns::RESULT);
        }
        if let Some(RefOr::T(Schema::Object(body))) = schemas.get_mut("StartGameBody") {
            set_pattern(
                body.properties.get_mut("time_control"),
                &patterns::TIME_CONTROL,
            );
        }
        if let Some(schema) = schemas.get_mut("StartGameBody") {
            free_handicap_needs_stones(schema);
        }
        for (name, schema) in schemas.iter_mut() {
            if name.ends_with("Body") || name == "LoadRequest" {
                close_variants(schema);
            }
        }
    }
}

fn set_pattern(schema: Option<&mut RefOr<Schema>>, pattern: &str) {
    if let Some(RefOr::T(Schema::Object(object))) = schema {
        object.pattern = Some(pattern.to_owned());
    }
}

/// `free_handicap: true` needs `handicap` 2 or more (bodies.rs, `StartGameBody::validate`):
/// the body is the object of its fields and, besides, either no free placement or
/// at least two stones.
fn free_handicap_needs_stones(schema: &mut RefOr<Schema>) {
    let RefOr::T(Schema::Object(object)) = schema else {
        return;
    };
    let description = object.description.take();
    let no_free_placement = ObjectBuilder::new().schema_type(Type::Object).property(
        "free_handicap",
        ObjectBuilder::new().enum_values(Some([Value::Bool(false), Value::Null])),
    );
    let stones = ObjectBuilder::new()
        .schema_type(Type::Object)
        .required("handicap")
        .property(
            "handicap",
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(2)),
        );
    let rule = AnyOfBuilder::new()
        .description(Some(
            "`free_handicap: true` needs `handicap` 2 or more (a 400 otherwise)",
        ))
        .item(no_free_placement)
        .item(stones);
    let fields = Schema::Object(object.clone());
    *schema = RefOr::T(Schema::AllOf(
        AllOfBuilder::new()
            .description(description)
            .item(fields)
            .item(rule)
            .build(),
    ));
}

/// A tagged enum refuses unknown fields (`deny_unknown_fields`) like the struct bodies,
/// whose schemas utoipa already closes: each inline variant says so too.
fn close_variants(schema: &mut RefOr<Schema>) {
    let RefOr::T(Schema::OneOf(one_of)) = schema else {
        return;
    };
    for item in &mut one_of.items {
        if let RefOr::T(Schema::Object(object)) = item {
            object.additional_properties = Some(Box::new(AdditionalProperties::FreeForm(false)));
        }
    }
}
