//! The arena's matrix as an SVG heat map (`rustkeep arena --matrix --format svg`, the site's
//! arena): red for options that lose, through yellow, to green for options that win.

use rustkeep_data::echo::xml as esc;
use rustkeep_data::number::percent;
use rustkeep_engine::arena::Matrix;

/// The heat map of `m`: a row per creature, a column per character option, each cell its win
/// rate (and, as its title, the mean rounds).
pub fn svg(m: &Matrix) -> String {
    let (label_w, cell_w, cell_h, head_h) = (190, 110, 24, 60);
    let w = label_w + cell_w * m.options.len() + 10;
    let h = head_h + cell_h * m.creatures.len() + 40;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    s.push_str(&format!(
        "<text x=\"10\" y=\"20\" font-size=\"14\">Win rate of each character option against one of each creature ({} fights per cell, seed {})</text>\n",
        m.runs, m.seed
    ));
    for (oi, o) in m.options.iter().enumerate() {
        let x = label_w + oi * cell_w + cell_w / 2;
        s.push_str(&format!("<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", head_h - 10, esc(o)));
    }
    for (ci, c) in m.creatures.iter().enumerate() {
        let y = head_h + ci * cell_h;
        s.push_str(&format!("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", label_w - 8, y + 16, esc(c)));
        for (oi, (wr, mr)) in m.cells[ci].iter().enumerate() {
            let x = label_w + oi * cell_w;
            // Red (0 %) through yellow (50 %) to green (100 %).
            let (r, g) = if *wr < 0.5 { (220.0, 60.0 + 340.0 * wr) } else { (220.0 - 340.0 * (wr - 0.5), 230.0) };
            s.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{cell_w}\" height=\"{cell_h}\" fill=\"rgb({},{},90)\" stroke=\"white\"><title>{} vs {}: {} wins, {mr:.1} rounds</title></rect>\n",
                r.round() as u8,
                g.round().min(255.0) as u8,
                esc(&m.options[oi]),
                esc(c),
                percent(*wr)
            ));
            s.push_str(&format!("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", x + cell_w / 2, y + 16, percent(*wr)));
        }
    }
    s.push_str("</svg>\n");
    s
}
