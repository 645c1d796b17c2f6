//! Judge Schotten Totten claims with talargv/SchottenRust, one position a line from stdin.
//!
//! A line is `STONE HAND S1 .. S9`, whitespace-separated, written by bench/rust_compare.py.
//! HAND and each side are comma-separated card numbers (`colour * 9 + value - 1`, the Python
//! engine's numbering) or `.` for none; a stone is `A_SIDE/B_SIDE/COMPLETED_FIRST/CLAIMED_BY`,
//! the last two `A`, `B` or `-`. Player A claims STONE (1 to 9). The hand is ignored: for both
//! engines the claimant's own hand is out of sight. Prints `1` (granted) or `0` (refused) a line,
//! and on stderr the seconds spent building and judging (reading stdin and printing excluded).

use std::io::{self, BufWriter, Read, Write};
use std::time::Instant;

use schotten::board::cards_on_board::CardsOnBoard;
use schotten::components::{Card, Player, Stone};

struct Line {
    stone: usize,
    sides: Vec<[Vec<u8>; 2]>,
    a_first: bool,
    claimed: bool,
}

fn cards(text: &str) -> Vec<u8> {
    if text == "." {
        return Vec::new();
    }
    text.split(',').map(|card| card.parse().expect("a card number")).collect()
}

fn parse(line: &str) -> Line {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(tokens.len(), 11, "a line is STONE HAND and nine stones: {line}");
    let stone: usize = tokens[0].parse().expect("a stone number");
    let mut sides = Vec::with_capacity(9);
    let (mut a_first, mut claimed) = (false, false);
    for (index, field) in tokens[2..].iter().enumerate() {
        let parts: Vec<&str> = field.split('/').collect();
        assert_eq!(parts.len(), 4, "a stone is A/B/FIRST/CLAIMED: {field}");
        sides.push([cards(parts[0]), cards(parts[1])]);
        if index + 1 == stone {
            a_first = parts[2] == "A";
            claimed = parts[3] != "-";
        }
    }
    Line { stone, sides, a_first, claimed }
}

fn card(number: u8) -> Card {
    Card::build(number % 9 + 1, number / 9 + 1)
}

/// Lay the board out and ask SchottenRust whether player A may claim the stone.
fn judge(line: &Line) -> bool {
    let mut board = CardsOnBoard::new();
    let (a, b) = (Player::build(0), Player::build(1));
    for (index, [side_a, side_b]) in line.sides.iter().enumerate() {
        if index + 1 == line.stone {
            continue;
        }
        let stone = Stone::build(index as u8);
        for &number in side_a {
            board.place_card(a, stone, card(number));
        }
        for &number in side_b {
            board.place_card(b, stone, card(number));
        }
    }
    // The claimed stone last, the side completed first laid first (that sets the tie-break).
    let stone = Stone::build((line.stone - 1) as u8);
    let [side_a, side_b] = &line.sides[line.stone - 1];
    let order = if line.a_first { [(a, side_a), (b, side_b)] } else { [(b, side_b), (a, side_a)] };
    for (player, side) in order {
        for &number in side {
            board.place_card(player, stone, card(number));
        }
    }
    !line.claimed && board.claim(a, stone)
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("stdin");
    let lines: Vec<&str> = input.lines().filter(|line| !line.trim().is_empty()).collect();
    let start = Instant::now();
    let verdicts: Vec<bool> = lines.iter().map(|line| judge(&parse(line))).collect();
    let elapsed = start.elapsed().as_secs_f64();
    let mut out = BufWriter::new(io::stdout().lock());
    for verdict in verdicts {
        writeln!(out, "{}", if verdict { 1 } else { 0 }).expect("stdout");
    }
    out.flush().expect("stdout");
    eprintln!("in-process seconds {elapsed:.6} positions {}", lines.len());
}
