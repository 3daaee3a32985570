//! The JSON schemas of the result records — a page-level run's (`RunResult`) and a phone's
//! (`PhoneResult`) — as they are serialized. The Python package's typed records
//! (`python/mobmem/records.py`) are generated from these (`make records`), and a test fails when
//! the two differ, so the Rust structs and the Python classes cannot drift.

use schemars::generate::SchemaSettings;

/// `{"RunResult": schema, "PhoneResult": schema}`, each with its `$defs`.
pub fn schemas() -> serde_json::Value {
    let schema = |s: schemars::Schema| serde_json::to_value(s).unwrap_or_default();
    let mut g = SchemaSettings::draft2020_12().for_serialize().into_generator();
    let run = schema(g.root_schema_for::<crate::run::RunResult>());
    let mut g = SchemaSettings::draft2020_12().for_serialize().into_generator();
    let phone = schema(g.root_schema_for::<crate::system::PhoneResult>());
    serde_json::json!({"RunResult": run, "PhoneResult": phone})
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_meter_is_in_the_schema_with_its_type() {
        let s = super::schemas();
        let defs = &s["RunResult"]["$defs"];
        let meters = &defs["Meters"]["properties"];
        let m = serde_json::to_value(crate::meters::Meters::default()).unwrap();
        for (k, v) in m.as_object().unwrap() {
            assert!(meters.get(k).is_some(), "{k} is serialized but not in the schema");
            if v.is_u64() {
                assert_eq!(meters[k]["type"], "integer", "{k}");
            }
        }
        assert_eq!(s["RunResult"]["properties"]["config"]["$ref"], "#/$defs/ResolvedConfig");
        let config = &defs["ResolvedConfig"]["properties"];
        assert_eq!(config["frames"]["type"], "integer");
        assert_eq!(config["page_cluster"]["$ref"], "#/$defs/PageCluster");
        assert_eq!(defs["PageCluster"]["type"], "integer", "serialized as its order");
        assert_eq!(defs["MemorySize"]["type"], "string");
        assert_eq!(config["swap"]["$ref"], "#/$defs/Device", "the device it resolved to, not its name");
    }
}
