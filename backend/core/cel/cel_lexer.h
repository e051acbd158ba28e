#pragma once

// CEL's lexis (cel-spec langdef.md "Syntax"): identifiers, keywords, int/uint/double literals
// (decimal and hex), quoted, raw and triple-quoted strings and bytes with every escape of the
// spec, operators and punctuation, // comments. Literals are decoded here; the parser sees values.

#include "core/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck::cel {

enum class Tok : std::uint8_t {
    End,
    Ident,
    Int,    // magnitude in `number` (the parser applies a leading '-')
    Uint,   // value in `number`
    Double, // value in `real`
    String, // decoded UTF-8 in `text`
    Bytes,  // decoded octets in `text`
    True,
    False,
    Null,
    In,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Dot,
    Comma,
    Colon,
    Question,
    Not,
    Minus,
    Plus,
    Star,
    Slash,
    Percent,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
};

struct Token {
    Tok kind = Tok::End;
    std::uint32_t pos = 0; // byte offset of its first character
    std::uint32_t end = 0; // byte offset past its last character
    std::string text;      // identifier name, decoded string or bytes
    std::uint64_t number = 0;
    double real = 0;
    bool reserved = false; // an identifier CEL reserves (if, for, let, ...)
};

// Every token of `source`, ending with Tok::End; or the first lexical error, its message
// "<line>:<column>: Syntax error: ...".
Result<std::vector<Token>> tokenize(std::string_view source);

// "<line>:<column>" of a byte offset, both counted from 1, columns in code points.
std::string positionOf(std::string_view source, std::size_t offset);

// How a token reads in a message: "'&&'", "identifier 'foo'", "end of input".
std::string describeToken(const Token& token);

// UTF-8 helpers shared by the lexer and the string functions.
void appendUtf8(std::string& out, std::uint32_t codePoint);
// The code point at text[i] and its length in bytes; a malformed byte reads as itself, length 1.
std::uint32_t decodeUtf8(std::string_view text, std::size_t i, std::size_t& length);
// The offset of the first byte that is not well-formed UTF-8, or npos.
std::size_t invalidUtf8At(std::string_view text);
std::size_t codePointCount(std::string_view text);

} // namespace topodeck::cel
