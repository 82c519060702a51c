/// The model specs shipped with the binary, as the bytes of their JSON files.
///
/// The generated `PackageResources` accessor is internal to this target, so this is the one place that hands the
/// embedded bytes to `Learning`, which decodes and validates them.
public enum EmbeddedModelSpecs {
    /// `Models/symptom-forecast.json`, byte for byte.
    public static var symptomForecast: [UInt8] { PackageResources.symptom_forecast_json }
}
