//! The interface's words in seven languages: one Fluent catalogue per language (`www/i18n/<code>.ftl`,
//! compiled into the page so a switch needs no request and works offline), the language chosen from
//! `?lang=`, then the one remembered, then the browser's languages, and numbers written as CLDR
//! writes them in each language (separators, grouping, percent sign).
//!
//! Fluent (Mozilla's message format) is used rather than a hand-rolled table because translators
//! know it and its plural selectors follow CLDR's rules per language (`intl_pluralrules`): Russian's
//! one/few/many, Amharic and Tigrinya counting 0 as "one", Dzongkha with no plural at all. Numbers
//! are formatted here, not by Fluent (which writes them the same in every language): a message gets
//! a `FluentNumber` with its options (percent, fraction digits) and `format_number` writes it.
//!
//! Only the page's own words are here. Messages that come from the engine (an error naming a file
//! and row, a model's fit summary) are English wherever they are shown.
//!
//! Compiles on every target so the native tests check the catalogues (`tests/integration/i18n.rs`).

use fluent_bundle::types::{FluentNumber, FluentNumberOptions, FluentNumberStyle};
use fluent_bundle::{FluentArgs, FluentBundle, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

/// A language of the interface: its code (BCP 47, as `?lang=` and `<html lang>` take it) and its
/// name in itself, as the language menu shows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Language {
    pub code: &'static str,
    pub name: &'static str,
}

/// The interface's languages, English first (the fallback for a missing message).
pub const LANGUAGES: [Language; 7] = [
    Language { code: "en", name: "English" },
    Language { code: "dz", name: "རྫོང་ཁ" },
    Language { code: "am", name: "አማርኛ" },
    Language { code: "ti", name: "ትግርኛ" },
    Language { code: "om", name: "Afaan Oromoo" },
    Language { code: "ky", name: "Кыргызча" },
    Language { code: "ru", name: "Русский" },
];

/// Each language's catalogue source, in `LANGUAGES` order.
pub const CATALOGUES: [(&str, &str); 7] = [
    ("en", include_str!("../../www/i18n/en.ftl")),
    ("dz", include_str!("../../www/i18n/dz.ftl")),
    ("am", include_str!("../../www/i18n/am.ftl")),
    ("ti", include_str!("../../www/i18n/ti.ftl")),
    ("om", include_str!("../../www/i18n/om.ftl")),
    ("ky", include_str!("../../www/i18n/ky.ftl")),
    ("ru", include_str!("../../www/i18n/ru.ftl")),
];

/// The interface language for a page: `?lang=` if it names one of ours, else the remembered choice,
/// else the first of the browser's languages (`navigator.languages`, `am-ET` matching `am`) that we
/// have, else English.
pub fn choose_language(query: Option<&str>, remembered: Option<&str>, browser: &[String]) -> &'static str {
    let ours = |tag: &str| -> Option<&'static str> {
        let primary = tag.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
        LANGUAGES.iter().find(|l| l.code == primary).map(|l| l.code)
    };
    query
        .and_then(ours)
        .or_else(|| remembered.and_then(ours))
        .or_else(|| browser.iter().find_map(|tag| ours(tag)))
        .unwrap_or("en")
}

/// One language's messages, with English behind it for a message the language lacks.
pub struct Catalogue {
    pub code: &'static str,
    bundle: FluentBundle<FluentResource>,
    english: Option<FluentBundle<FluentResource>>,
}

/// A catalogue that does not parse or defines a message twice: the file and what is wrong.
fn bundle_for(code: &'static str) -> Result<FluentBundle<FluentResource>, String> {
    let (_, source) =
        CATALOGUES.iter().find(|(c, _)| *c == code).ok_or_else(|| format!("no catalogue for `{code}`"))?;
    let resource = FluentResource::try_new(source.to_string()).map_err(|(_, errors)| {
        format!("www/i18n/{code}.ftl: {} syntax error(s), the first: {:?}", errors.len(), errors[0])
    })?;
    let lang: LanguageIdentifier = code.parse().map_err(|e| format!("`{code}`: {e}"))?;
    let mut bundle = FluentBundle::new(vec![lang]);
    // No Unicode isolation marks around arguments: every script here runs left to right, and the
    // marks would land in copied text and in the tests' comparisons.
    bundle.set_use_isolating(false);
    bundle.set_formatter(Some(format_value));
    bundle.add_resource(resource).map_err(|errors| format!("www/i18n/{code}.ftl: {errors:?}"))?;
    Ok(bundle)
}

impl Catalogue {
    pub fn new(code: &str) -> Result<Catalogue, String> {
        let code = LANGUAGES
            .iter()
            .find(|l| l.code == code)
            .map(|l| l.code)
            .ok_or_else(|| format!("no interface language `{code}`"))?;
        let bundle = bundle_for(code)?;
        let english = if code == "en" { None } else { Some(bundle_for("en")?) };
        Ok(Catalogue { code, bundle, english })
    }

    /// The message `key` with its arguments. A message missing here comes from English; one missing
    /// there too is shown as its key (the catalogue test keeps that from shipping).
    pub fn text(&self, key: &str, args: &[(&str, Arg)]) -> String {
        let fluent_args = fluent_args(args);
        let args = (!args.is_empty()).then_some(&fluent_args);
        for bundle in std::iter::once(&self.bundle).chain(self.english.as_ref()) {
            if let Some(pattern) = bundle.get_message(key).and_then(|m| m.value()) {
                let mut errors = Vec::new();
                return bundle.format_pattern(pattern, args, &mut errors).into_owned();
            }
        }
        key.to_string()
    }

    /// As `text`, but a message missing from this language or one Fluent reports an error for
    /// (an unknown variable, a bad selector) is an error: for the catalogue test.
    pub fn text_checked(&self, key: &str, args: &[(&str, Arg)]) -> Result<String, String> {
        let pattern = self
            .bundle
            .get_message(key)
            .and_then(|m| m.value())
            .ok_or_else(|| format!("{}: no message `{key}`", self.code))?;
        let mut errors = Vec::new();
        let text = self.bundle.format_pattern(pattern, Some(&fluent_args(args)), &mut errors).into_owned();
        if errors.is_empty() {
            Ok(text)
        } else {
            Err(format!("{}: `{key}`: {errors:?}", self.code))
        }
    }

    /// Formats a number as this language writes it.
    pub fn number(&self, value: f64, style: NumberStyle) -> String {
        format_number(self.code, value, &style.options())
    }
}

/// The CLDR plural category of the count `n` in language `code` (`one`, `few`, `many`, `other`,
/// …): the one a Fluent selector on a count picks.
pub fn plural_category(code: &str, n: u64) -> Result<&'static str, String> {
    use intl_pluralrules::{PluralCategory, PluralRuleType, PluralRules};
    let lang: LanguageIdentifier = code.parse().map_err(|e| format!("`{code}`: {e}"))?;
    let rules = PluralRules::create(lang, PluralRuleType::CARDINAL).map_err(|e| format!("`{code}`: {e}"))?;
    Ok(match rules.select(n).map_err(|e| format!("`{code}`: {e}"))? {
        PluralCategory::ZERO => "zero",
        PluralCategory::ONE => "one",
        PluralCategory::TWO => "two",
        PluralCategory::FEW => "few",
        PluralCategory::MANY => "many",
        PluralCategory::OTHER => "other",
    })
}

fn fluent_args<'a>(args: &'a [(&str, Arg)]) -> FluentArgs<'a> {
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        fluent_args.set(*name, value.to_fluent());
    }
    fluent_args
}

/// An argument of a message.
#[derive(Debug, Clone)]
pub enum Arg {
    Text(String),
    /// A count: selects the plural form and is written with the language's digits.
    Count(u64),
    Number(f64, NumberStyle),
}

impl Arg {
    fn to_fluent(&self) -> FluentValue<'static> {
        match self {
            Arg::Text(s) => FluentValue::String(s.clone().into()),
            Arg::Count(n) => FluentValue::Number(FluentNumber::new(*n as f64, NumberStyle::Integer.options())),
            Arg::Number(v, style) => FluentValue::Number(FluentNumber::new(*v, style.options())),
        }
    }
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Text(s.to_string())
    }
}
impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Text(s)
    }
}
impl From<usize> for Arg {
    fn from(n: usize) -> Arg {
        Arg::Count(n as u64)
    }
}
impl From<u64> for Arg {
    fn from(n: u64) -> Arg {
        Arg::Count(n)
    }
}

/// How a number is written: the kinds the interface uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NumberStyle {
    Integer,
    /// A fraction with this many decimals (a probability, a log-likelihood).
    Decimal(usize),
    /// A share as a percentage with this many decimals (0.312 → 31.2 %).
    Percent(usize),
}

impl NumberStyle {
    fn options(self) -> FluentNumberOptions {
        let mut o = FluentNumberOptions::default();
        let digits = match self {
            NumberStyle::Integer => 0,
            NumberStyle::Decimal(d) => d,
            NumberStyle::Percent(d) => {
                o.style = FluentNumberStyle::Percent;
                d
            }
        };
        o.minimum_fraction_digits = Some(digits);
        o.maximum_fraction_digits = Some(digits);
        o
    }
}

/// Fluent's hook: every number a message shows goes through `format_number` in the bundle's
/// language (the memoizer is per language; its `construct` receives the language).
fn format_value(value: &FluentValue, memoizer: &intl_memoizer::IntlLangMemoizer) -> Option<String> {
    let FluentValue::Number(number) = value else { return None };
    memoizer.with_try_get::<LanguageOf, _, _>((), |lang| format_number(&lang.0, number.value, &number.options)).ok()
}

/// The bundle's language, handed to `format_value` by Fluent's memoizer.
struct LanguageOf(String);

impl intl_memoizer::Memoizable for LanguageOf {
    type Args = ();
    type Error = ();
    fn construct(lang: LanguageIdentifier, _: ()) -> Result<Self, ()> {
        Ok(LanguageOf(lang.language.as_str().to_string()))
    }
}

/// CLDR's number symbols and patterns for our languages, as Babel 2.19 reads them: decimal
/// separator, group separator, a no-break space before `%` or not, and the size of the groups after
/// the first three digits (Dzongkha groups by two: 12,34,567). Digits are Latin everywhere, as Babel
/// writes them (CLDR's default for Dzongkha is Tibetan digits, which Babel does not substitute and
/// Bhutanese classrooms use Latin digits for arithmetic). `tests/integration/i18n.rs` compares every
/// language's output with Babel's.
struct NumberSymbols {
    decimal: char,
    group: char,
    percent_space: bool,
    secondary_group: usize,
}

fn symbols(code: &str) -> NumberSymbols {
    match code {
        "ru" => NumberSymbols { decimal: ',', group: '\u{a0}', percent_space: true, secondary_group: 3 },
        "ky" => NumberSymbols { decimal: ',', group: '\u{a0}', percent_space: false, secondary_group: 3 },
        "dz" => NumberSymbols { decimal: '.', group: ',', percent_space: true, secondary_group: 2 },
        _ => NumberSymbols { decimal: '.', group: ',', percent_space: false, secondary_group: 3 },
    }
}

/// `value` written in language `code` with Fluent's number options (percent style, fraction digits,
/// grouping), rounded half to even on the shortest decimal form of the double, as ICU and Babel do.
pub fn format_number(code: &str, value: f64, options: &FluentNumberOptions) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    let percent = options.style == FluentNumberStyle::Percent;
    let max = options.maximum_fraction_digits.unwrap_or(if percent { 0 } else { 3 });
    let min = options.minimum_fraction_digits.unwrap_or(0).min(max);
    let negative = value < 0.0;
    let (mut digits, mut point) = decimal_digits(value.abs());
    if percent {
        point += 2;
    }
    round_half_even(&mut digits, &mut point, max);
    // Integer part: the digits before the point (at least one); fraction: the rest, trailing zeros
    // dropped down to `min`.
    let mut integer: Vec<u8> =
        if point <= 0 { vec![0] } else { (0..point as usize).map(|i| digits.get(i).copied().unwrap_or(0)).collect() };
    while integer.len() > 1 && integer[0] == 0 {
        integer.remove(0); // zero itself, shifted as a percentage
    }
    let mut fraction: Vec<u8> = (0..max)
        .map(|i| {
            let at = point + i as i64;
            if at < 0 {
                0
            } else {
                digits.get(at as usize).copied().unwrap_or(0)
            }
        })
        .collect();
    while fraction.len() > min && fraction.last() == Some(&0) {
        fraction.pop();
    }
    let s = symbols(code);
    let digit = |d: u8| char::from(b'0' + d);
    let mut out = String::new();
    let is_zero = integer.iter().all(|&d| d == 0) && fraction.iter().all(|&d| d == 0);
    if negative && !is_zero {
        out.push('-');
    }
    let n = integer.len();
    for (i, &d) in integer.iter().enumerate() {
        out.push(digit(d));
        let after = n - i - 1; // integer digits still to come
        if options.use_grouping
            && after > 0
            && n > 3
            && (after == 3 || (after > 3 && (after - 3).is_multiple_of(s.secondary_group)))
        {
            out.push(s.group);
        }
    }
    if !fraction.is_empty() {
        out.push(s.decimal);
        out.extend(fraction.iter().map(|&d| digit(d)));
    }
    if percent {
        if s.percent_space {
            out.push('\u{a0}');
        }
        out.push('%');
    }
    out
}

/// The shortest decimal form of a finite non-negative double as digits and the position of the
/// point (value = 0.d1d2… × 10^point).
fn decimal_digits(value: f64) -> (Vec<u8>, i64) {
    if value == 0.0 {
        return (Vec::new(), 0);
    }
    let text = format!("{:e}", value); // shortest round-trip digits: "3.125e-1"
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let exponent: i64 = exponent.parse().unwrap_or(0);
    let digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).map(|b| b - b'0').collect();
    (digits, exponent + 1)
}

/// Rounds `digits` (value = 0.d… × 10^point) to `places` after the point, half to even.
fn round_half_even(digits: &mut Vec<u8>, point: &mut i64, places: usize) {
    let keep = *point + places as i64; // how many leading digits stay
    if keep < 0 {
        digits.clear();
        return;
    }
    let keep = keep as usize;
    if digits.len() <= keep {
        return;
    }
    let first_dropped = digits[keep];
    let rest_nonzero = digits[keep + 1..].iter().any(|&d| d != 0);
    let last_kept_odd = keep > 0 && digits[keep - 1] % 2 == 1;
    let round_up = first_dropped > 5 || (first_dropped == 5 && (rest_nonzero || last_kept_odd));
    digits.truncate(keep);
    if round_up {
        let mut i = keep;
        loop {
            if i == 0 {
                digits.insert(0, 1);
                *point += 1;
                break;
            }
            i -= 1;
            if digits[i] == 9 {
                digits[i] = 0;
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
}
