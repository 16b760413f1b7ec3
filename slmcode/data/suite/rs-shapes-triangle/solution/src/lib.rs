mod square;
mod triangle;

pub use square::Square;
pub use triangle::Triangle;

/// Anything with an area.
pub trait Shape {
    fn area(&self) -> f64;
}

/// The sum of the areas.
pub fn total_area(shapes: &[Box<dyn Shape>]) -> f64 {
    shapes.iter().map(|s| s.area()).sum()
}
