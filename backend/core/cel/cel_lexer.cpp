#include "core/cel/cel_lexer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>

namespace topodeck::cel {

// ---- UTF-8 ----

void appendUtf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

std::uint32_t decodeUtf8(std::string_view text, std::size_t i, std::size_t& length) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = byte(i);
    length = 1;
    if (c < 0x80) return c;
    std::size_t n = 0;
    std::uint32_t cp = 0;
    std::uint32_t min = 0;
    if ((c & 0xE0) == 0xC0) {
        n = 2, cp = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3, cp = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4, cp = c & 0x07, min = 0x10000;
    } else {
        return c;
    }
    if (i + n > text.size()) return c;
    for (std::size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return c;
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return c;
    length = n;
    return cp;
}

std::size_t invalidUtf8At(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        std::size_t length = 0;
        const std::uint32_t cp = decodeUtf8(text, i, length);
        if (length == 1 && cp >= 0x80) return i;
        i += length;
    }
    return std::string_view::npos;
}

std::size_t codePointCount(std::string_view text) {
    std::size_t count = 0;
    for (unsigned char c : text)
        if ((c & 0xC0) != 0x80) ++count;
    return count;
}

std::string positionOf(std::string_view source, std::size_t offset) {
    std::size_t line = 1;
    std::size_t lineStart = 0;
    offset = std::min(offset, source.size());
    for (std::size_t i = 0; i < offset; ++i)
        if (source[i] == '\n') line++, lineStart = i + 1;
    const std::size_t column = codePointCount(source.substr(lineStart, offset - lineStart)) + 1;
    return std::to_string(line) + ":" + std::to_string(column);
}

namespace {

bool isIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isIdentChar(char c) {
    return isIdentStart(c) || isDigit(c);
}
bool isHexDigit(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int hexValue(char c) {
    return isDigit(c) ? c - '0' : (c >= 'a' && c <= 'f' ? c - 'a' + 10 : c - 'A' + 10);
}

constexpr std::array<std::string_view, 17> kReserved = {"as",        "break",  "const",  "continue", "else", "for",
                                                        "function",  "if",     "import", "let",      "loop", "package",
                                                        "namespace", "return", "var",    "void",     "while"};

class Lexer {
public:
    explicit Lexer(std::string_view source) : m_src(source) {}

    Result<std::vector<Token>> run();

private:
    Error fail(std::size_t at, std::string_view what) const {
        return Error{positionOf(m_src, at) + ": Syntax error: " + std::string(what)};
    }
    void skipBlanks();
    Result<Token> number();
    Result<Token> quoted(std::size_t start, bool raw, bool bytes);
    bool escape(std::size_t& i, bool bytes, std::string& out, std::string& problem) const;
    std::optional<Tok> punctuation(std::size_t& length) const;

    std::string_view m_src;
    std::size_t m_at = 0;
};

void Lexer::skipBlanks() {
    while (m_at < m_src.size()) {
        const char c = m_src[m_at];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
            ++m_at;
        } else if (c == '/' && m_at + 1 < m_src.size() && m_src[m_at + 1] == '/') {
            while (m_at < m_src.size() && m_src[m_at] != '\n') ++m_at;
        } else {
            return;
        }
    }
}

std::optional<Tok> Lexer::punctuation(std::size_t& length) const {
    const char c = m_src[m_at];
    const char next = m_at + 1 < m_src.size() ? m_src[m_at + 1] : '\0';
    length = 2;
    if (c == '=' && next == '=') return Tok::Eq;
    if (c == '!' && next == '=') return Tok::Ne;
    if (c == '<' && next == '=') return Tok::Le;
    if (c == '>' && next == '=') return Tok::Ge;
    if (c == '&' && next == '&') return Tok::And;
    if (c == '|' && next == '|') return Tok::Or;
    length = 1;
    switch (c) {
    case '(':
        return Tok::LParen;
    case ')':
        return Tok::RParen;
    case '[':
        return Tok::LBracket;
    case ']':
        return Tok::RBracket;
    case '{':
        return Tok::LBrace;
    case '}':
        return Tok::RBrace;
    case '.':
        return Tok::Dot;
    case ',':
        return Tok::Comma;
    case ':':
        return Tok::Colon;
    case '?':
        return Tok::Question;
    case '!':
        return Tok::Not;
    case '-':
        return Tok::Minus;
    case '+':
        return Tok::Plus;
    case '*':
        return Tok::Star;
    case '/':
        return Tok::Slash;
    case '%':
        return Tok::Percent;
    case '<':
        return Tok::Lt;
    case '>':
        return Tok::Gt;
    default:
        return std::nullopt;
    }
}

Result<Token> Lexer::number() {
    Token t;
    t.pos = static_cast<std::uint32_t>(m_at);
    const std::size_t start = m_at;
    if (m_src[m_at] == '0' && m_at + 1 < m_src.size() && (m_src[m_at + 1] == 'x' || m_src[m_at + 1] == 'X')) {
        m_at += 2;
        const std::size_t digits = m_at;
        while (m_at < m_src.size() && isHexDigit(m_src[m_at])) ++m_at;
        if (m_at == digits) return fail(start, "a hex literal needs digits after 0x");
        std::uint64_t value = 0;
        const auto [p, ec] = std::from_chars(m_src.data() + digits, m_src.data() + m_at, value, 16);
        (void)p;
        if (ec != std::errc()) return fail(start, "invalid int literal: it does not fit 64 bits");
        t.number = value;
        t.kind = Tok::Int;
    } else {
        bool real = false;
        while (m_at < m_src.size() && isDigit(m_src[m_at])) ++m_at;
        if (m_at + 1 < m_src.size() && m_src[m_at] == '.' && isDigit(m_src[m_at + 1])) {
            real = true;
            m_at += 1;
            while (m_at < m_src.size() && isDigit(m_src[m_at])) ++m_at;
        }
        if (m_at < m_src.size() && (m_src[m_at] == 'e' || m_src[m_at] == 'E')) {
            std::size_t e = m_at + 1;
            if (e < m_src.size() && (m_src[e] == '+' || m_src[e] == '-')) ++e;
            if (e < m_src.size() && isDigit(m_src[e])) {
                real = true;
                m_at = e;
                while (m_at < m_src.size() && isDigit(m_src[m_at])) ++m_at;
            }
        }
        if (real) {
            const auto [p, ec] = std::from_chars(m_src.data() + start, m_src.data() + m_at, t.real);
            if (ec != std::errc() || p != m_src.data() + m_at)
                return fail(start, "invalid double literal '" + std::string(m_src.substr(start, m_at - start)) + "'");
            t.kind = Tok::Double;
            t.end = static_cast<std::uint32_t>(m_at);
            return t;
        }
        const auto [p, ec] = std::from_chars(m_src.data() + start, m_src.data() + m_at, t.number);
        (void)p;
        if (ec != std::errc()) return fail(start, "invalid int literal: it does not fit 64 bits");
        t.kind = Tok::Int;
    }
    if (m_at < m_src.size() && (m_src[m_at] == 'u' || m_src[m_at] == 'U')) {
        ++m_at;
        t.kind = Tok::Uint;
    }
    t.end = static_cast<std::uint32_t>(m_at);
    return t;
}

// One escape sequence at m_src[i] == '\\'; advances i past it.
bool Lexer::escape(std::size_t& i, bool bytes, std::string& out, std::string& problem) const {
    if (i + 1 >= m_src.size()) {
        problem = "a backslash ends the input";
        return false;
    }
    const char c = m_src[i + 1];
    const auto hex = [&](std::size_t from, std::size_t count, std::uint32_t& value) {
        value = 0;
        if (from + count > m_src.size()) return false;
        for (std::size_t k = 0; k < count; ++k) {
            if (!isHexDigit(m_src[from + k])) return false;
            value = value * 16 + static_cast<std::uint32_t>(hexValue(m_src[from + k]));
        }
        return true;
    };
    std::uint32_t value = 0;
    switch (c) {
    case '\\':
    case '?':
    case '"':
    case '\'':
    case '`':
        out += c;
        i += 2;
        return true;
    case 'a':
        out += '\a';
        i += 2;
        return true;
    case 'b':
        out += '\b';
        i += 2;
        return true;
    case 'f':
        out += '\f';
        i += 2;
        return true;
    case 'n':
        out += '\n';
        i += 2;
        return true;
    case 'r':
        out += '\r';
        i += 2;
        return true;
    case 't':
        out += '\t';
        i += 2;
        return true;
    case 'v':
        out += '\v';
        i += 2;
        return true;
    case 'x':
    case 'X':
        if (!hex(i + 2, 2, value)) break;
        i += 4;
        if (bytes)
            out += static_cast<char>(value);
        else
            appendUtf8(out, value);
        return true;
    case 'u':
    case 'U': {
        const std::size_t count = c == 'u' ? 4 : 8;
        if (bytes) {
            problem = std::string("\\") + c + " escapes are not allowed in bytes literals";
            return false;
        }
        if (!hex(i + 2, count, value)) break;
        if (value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) {
            problem = "invalid Unicode code point in escape " + std::string(m_src.substr(i, count + 2));
            return false;
        }
        i += 2 + count;
        appendUtf8(out, value);
        return true;
    }
    default:
        if (c >= '0' && c <= '3' && i + 3 < m_src.size() && m_src[i + 2] >= '0' && m_src[i + 2] <= '7' &&
            m_src[i + 3] >= '0' && m_src[i + 3] <= '7') {
            value = static_cast<std::uint32_t>((c - '0') * 64 + (m_src[i + 2] - '0') * 8 + (m_src[i + 3] - '0'));
            i += 4;
            if (bytes)
                out += static_cast<char>(value);
            else
                appendUtf8(out, value);
            return true;
        }
        break;
    }
    std::size_t length = 0;
    decodeUtf8(m_src, i + 1, length);
    problem = "invalid escape sequence '\\" + std::string(m_src.substr(i + 1, length)) + "'";
    return false;
}

// A string or bytes literal whose opening quote is at m_at.
Result<Token> Lexer::quoted(std::size_t start, bool raw, bool bytes) {
    Token t;
    t.kind = bytes ? Tok::Bytes : Tok::String;
    t.pos = static_cast<std::uint32_t>(start);
    const char q = m_src[m_at];
    const bool triple = m_src.compare(m_at, 3, std::string(3, q)) == 0;
    const std::size_t delimiter = triple ? 3 : 1;
    std::size_t i = m_at + delimiter;
    while (true) {
        if (i >= m_src.size()) return fail(start, "unterminated string literal");
        const char c = m_src[i];
        if (c == q && (!triple || m_src.compare(i, 3, std::string(3, q)) == 0)) break;
        if (!triple && (c == '\n' || c == '\r')) return fail(start, "a line break in a single-quoted string literal");
        if (c == '\\' && !raw) {
            std::string problem;
            if (!escape(i, bytes, t.text, problem)) return fail(i, problem);
            continue;
        }
        t.text += c;
        ++i;
    }
    m_at = i + delimiter;
    t.end = static_cast<std::uint32_t>(m_at);
    return t;
}

Result<std::vector<Token>> Lexer::run() {
    if (const std::size_t bad = invalidUtf8At(m_src); bad != std::string_view::npos)
        return fail(bad, "the expression is not valid UTF-8");
    std::vector<Token> tokens;
    while (true) {
        skipBlanks();
        if (m_at >= m_src.size()) break;
        const char c = m_src[m_at];
        const std::size_t start = m_at;
        if (isDigit(c) || (c == '.' && m_at + 1 < m_src.size() && isDigit(m_src[m_at + 1]))) {
            Result<Token> t = number();
            if (!t) return t.error();
            tokens.push_back(std::move(*t));
            continue;
        }
        if (c == '"' || c == '\'') {
            Result<Token> t = quoted(start, false, false);
            if (!t) return t.error();
            tokens.push_back(std::move(*t));
            continue;
        }
        if (isIdentStart(c)) {
            while (m_at < m_src.size() && isIdentChar(m_src[m_at])) ++m_at;
            const std::string_view word = m_src.substr(start, m_at - start);
            // String prefixes: r, b and both in either order and case.
            const bool quote = m_at < m_src.size() && (m_src[m_at] == '"' || m_src[m_at] == '\'');
            if (quote && word.size() <= 2) {
                bool raw = false;
                bool bytes = false;
                bool prefix = true;
                for (char p : word) {
                    if ((p == 'r' || p == 'R') && !raw)
                        raw = true;
                    else if ((p == 'b' || p == 'B') && !bytes)
                        bytes = true;
                    else
                        prefix = false;
                }
                if (prefix) {
                    Result<Token> t = quoted(start, raw, bytes);
                    if (!t) return t.error();
                    tokens.push_back(std::move(*t));
                    continue;
                }
            }
            Token t;
            t.pos = static_cast<std::uint32_t>(start);
            t.end = static_cast<std::uint32_t>(m_at);
            if (word == "true")
                t.kind = Tok::True;
            else if (word == "false")
                t.kind = Tok::False;
            else if (word == "null")
                t.kind = Tok::Null;
            else if (word == "in")
                t.kind = Tok::In;
            else
                t.kind = Tok::Ident;
            t.text = std::string(word);
            t.reserved = std::find(kReserved.begin(), kReserved.end(), word) != kReserved.end();
            tokens.push_back(std::move(t));
            continue;
        }
        std::size_t length = 0;
        const std::optional<Tok> p = punctuation(length);
        if (!p) {
            std::size_t cpLength = 0;
            decodeUtf8(m_src, m_at, cpLength);
            if (c == '=') return fail(start, "unexpected '=' (equality is '==')");
            if (c == '&' || c == '|')
                return fail(start, std::string("unexpected '") + c + "' (did you mean '" + c + c + "'?)");
            return fail(start, "unexpected character '" + std::string(m_src.substr(m_at, cpLength)) + "'");
        }
        Token t;
        t.kind = *p;
        t.pos = static_cast<std::uint32_t>(start);
        m_at += length;
        t.end = static_cast<std::uint32_t>(m_at);
        tokens.push_back(std::move(t));
    }
    Token end;
    end.pos = end.end = static_cast<std::uint32_t>(m_src.size());
    tokens.push_back(std::move(end));
    return tokens;
}

} // namespace

Result<std::vector<Token>> tokenize(std::string_view source) {
    return Lexer(source).run();
}

std::string describeToken(const Token& token) {
    switch (token.kind) {
    case Tok::End:
        return "end of input";
    case Tok::Ident:
        return "identifier '" + token.text + "'";
    case Tok::Int:
    case Tok::Uint:
    case Tok::Double:
        return "a number";
    case Tok::String:
        return "a string";
    case Tok::Bytes:
        return "a bytes literal";
    case Tok::True:
        return "'true'";
    case Tok::False:
        return "'false'";
    case Tok::Null:
        return "'null'";
    case Tok::In:
        return "'in'";
    default:
        break;
    }
    static constexpr std::array<std::string_view, 24> kPunct = {"(",  ")",  "[", "]",  "{", "}",  ".",  ",",
                                                                ":",  "?",  "!", "-",  "+", "*",  "/",  "%",
                                                                "==", "!=", "<", "<=", ">", ">=", "&&", "||"};
    const auto index = static_cast<std::size_t>(token.kind) - static_cast<std::size_t>(Tok::LParen);
    return index < kPunct.size() ? "'" + std::string(kPunct[index]) + "'" : "a token";
}

} // namespace topodeck::cel
