use shapes::{total_area, Shape, Square, Triangle};

#[test]
fn triangle_area() {
    assert!((Triangle { base: 4.0, height: 3.0 }.area() - 6.0).abs() < 1e-9);
}

#[test]
fn total_with_triangle() {
    let all: Vec<Box<dyn Shape>> = vec![Box::new(Square { side: 2.0 }), Box::new(Triangle { base: 2.0, height: 2.0 })];
    assert!((total_area(&all) - 6.0).abs() < 1e-9);
}
