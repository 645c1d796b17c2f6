pub use real_itertools::*;
