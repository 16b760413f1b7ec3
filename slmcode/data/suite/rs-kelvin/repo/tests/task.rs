use units::celsius_to_kelvin;

#[test]
fn boiling_water_in_kelvin() {
    assert!((celsius_to_kelvin(100.0) - 373.15).abs() < 1e-9);
}
