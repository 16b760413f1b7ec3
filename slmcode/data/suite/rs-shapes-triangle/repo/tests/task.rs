use shapes::{Shape, Triangle};

#[test]
fn a_triangle_is_half_its_rectangle() {
    assert!((Triangle { base: 6.0, height: 2.0 }.area() - 6.0).abs() < 1e-9);
}
