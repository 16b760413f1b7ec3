use units::{celsius_to_kelvin, kelvin_to_celsius};

#[test]
fn to_kelvin() {
    assert!((celsius_to_kelvin(0.0) - 273.15).abs() < 1e-9);
}

#[test]
fn round_trip() {
    assert!((kelvin_to_celsius(celsius_to_kelvin(21.5)) - 21.5).abs() < 1e-9);
}
