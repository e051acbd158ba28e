#include "core/cel/cel_parser.h"

#include "core/cel/cel_lexer.h"

#include <algorithm>
#include <optional>
#include <span>
#include <unordered_map>

namespace topodeck::cel {

namespace {

constexpr std::uint64_t kInt64Max = 9'223'372'036'854'775'807ULL;

class Parser {
public:
    Parser(std::string_view source, std::vector<Token> tokens, ProgramData& out)
        : m_source(source), m_tokens(std::move(tokens)), m_out(out) {}

    Status run();

private:
    // Building blocks.
    const Token& peek(std::size_t ahead = 0) const { return m_tokens[std::min(m_next + ahead, m_tokens.size() - 1)]; }
    const Token& take() { return m_tokens[std::min(m_next++, m_tokens.size() - 1)]; }
    bool accept(Tok kind) {
        if (peek().kind != kind) return false;
        take();
        return true;
    }
    std::int32_t fail(std::size_t pos, const std::string& what) {
        if (!m_error) m_error = Error{positionOf(m_source, pos) + ": " + what};
        return -1;
    }
    std::int32_t syntax(const Token& at, const std::string& what) { return fail(at.pos, "Syntax error: " + what); }
    std::int32_t unsupported(std::size_t pos, const std::string& what) { return fail(pos, "unsupported: " + what); }
    bool expect(Tok kind, const char* what) {
        if (accept(kind)) return true;
        syntax(peek(), std::string("expected ") + what + " but found " + describeToken(peek()));
        return false;
    }
    std::int32_t intern(std::string_view name);
    std::int32_t add(Node n, std::span<const std::int32_t> args = {});
    std::int32_t literal(Value v, std::uint32_t pos);
    std::int32_t call(std::string_view name, std::span<const std::int32_t> args, std::uint32_t pos, bool receiver);
    const Node& node(std::int32_t i) const { return m_out.node(i); }

    // The grammar, lowest precedence first.
    std::int32_t expr();
    std::int32_t logical(Tok op, NodeKind kind);
    std::int32_t relation();
    std::int32_t binary(int level);
    std::int32_t unary();
    std::int32_t member();
    std::int32_t suffixes(std::int32_t target);
    std::int32_t primary();
    std::int32_t numberLiteral(const Token& t, bool negative);
    std::int32_t aggregate(bool map);
    bool exprList(Tok closer, bool trailingComma, std::vector<std::int32_t>& out);
    std::int32_t globalCall(const Token& name, std::vector<std::int32_t> args);
    std::int32_t memberCall(std::int32_t target, const Token& name, std::vector<std::int32_t> args);
    std::int32_t comprehension(ComprehensionKind kind, std::int32_t range, std::span<const std::int32_t> args,
                               const Token& name);
    std::optional<std::int32_t> simpleName(std::int32_t arg);
    bool qualifiedName(std::int32_t n, std::string& out) const;

    std::string_view m_source;
    std::vector<Token> m_tokens;
    ProgramData& m_out;
    std::size_t m_next = 0;
    int m_depth = 0;
    std::optional<Error> m_error;
    std::unordered_map<std::string, std::int32_t> m_interned;
};

std::int32_t Parser::intern(std::string_view name) {
    const auto [it, isNew] = m_interned.try_emplace(std::string(name), 0);
    if (isNew) it->second = m_out.addName(std::string(name));
    return it->second;
}

std::int32_t Parser::add(Node n, std::span<const std::int32_t> args) {
    int depth = 0;
    if (n.kind != NodeKind::Literal) // a literal's `a` is its constant
        for (const std::int32_t child : {n.a, n.b, n.c})
            if (child >= 0) depth = std::max<int>(depth, node(child).depth);
    n.first = static_cast<std::int32_t>(m_out.args.size());
    n.count = static_cast<std::int32_t>(args.size());
    for (const std::int32_t arg : args) {
        m_out.args.push_back(arg);
        depth = std::max<int>(depth, node(arg).depth);
    }
    if (depth + 1 > kMaxNestingDepth)
        return fail(n.pos, "expression nesting exceeds " + std::to_string(kMaxNestingDepth) + " levels");
    n.depth = static_cast<std::uint16_t>(depth + 1);
    m_out.nodes.push_back(n);
    return static_cast<std::int32_t>(m_out.nodes.size() - 1);
}

std::int32_t Parser::literal(Value v, std::uint32_t pos) {
    Node n;
    n.kind = NodeKind::Literal;
    n.pos = pos;
    n.a = m_out.addConstant(std::move(v));
    return add(n);
}

std::int32_t Parser::call(std::string_view name, std::span<const std::int32_t> args, std::uint32_t pos, bool receiver) {
    Node n;
    n.kind = NodeKind::Call;
    n.pos = pos;
    n.name = intern(name);
    n.aux = receiver ? 1 : 0;
    return add(n, args);
}

std::int32_t Parser::expr() {
    if (m_depth >= kMaxRecursionDepth)
        return fail(peek().pos, "expression recursion limit exceeded: " + std::to_string(kMaxRecursionDepth));
    ++m_depth;
    struct Leave {
        int& depth;
        ~Leave() { --depth; }
    } leave{m_depth};
    const std::int32_t condition = logical(Tok::Or, NodeKind::Or);
    if (condition < 0 || peek().kind != Tok::Question) return condition;
    Node n;
    n.kind = NodeKind::Conditional;
    n.pos = take().pos;
    n.a = condition;
    n.b = logical(Tok::Or, NodeKind::Or);
    if (n.b < 0 || !expect(Tok::Colon, "':' of the conditional")) return -1;
    n.c = expr();
    return n.c < 0 ? -1 : add(n);
}

// a || b || c (and a && b && c) as one n-ary node.
std::int32_t Parser::logical(Tok op, NodeKind kind) {
    const auto next = [&] { return op == Tok::Or ? logical(Tok::And, NodeKind::And) : relation(); };
    const std::int32_t first = next();
    if (first < 0 || peek().kind != op) return first;
    std::vector<std::int32_t> terms{first};
    Node n;
    n.kind = kind;
    n.pos = peek().pos;
    while (accept(op)) {
        const std::int32_t term = next();
        if (term < 0) return -1;
        terms.push_back(term);
    }
    return add(n, terms);
}

std::int32_t Parser::relation() {
    std::int32_t left = binary(0);
    while (left >= 0) {
        const char* name = nullptr;
        switch (peek().kind) {
        case Tok::Eq:
            name = "_==_";
            break;
        case Tok::Ne:
            name = "_!=_";
            break;
        case Tok::Lt:
            name = "_<_";
            break;
        case Tok::Le:
            name = "_<=_";
            break;
        case Tok::Gt:
            name = "_>_";
            break;
        case Tok::Ge:
            name = "_>=_";
            break;
        case Tok::In:
            name = "@in";
            break;
        default:
            return left;
        }
        const std::uint32_t pos = take().pos;
        const std::int32_t right = binary(0);
        if (right < 0) return -1;
        const std::int32_t operands[] = {left, right};
        left = call(name, operands, pos, false);
    }
    return left;
}

// Level 0: + and -; level 1: *, / and %.
std::int32_t Parser::binary(int level) {
    std::int32_t left = level == 0 ? binary(1) : unary();
    while (left >= 0) {
        const Tok k = peek().kind;
        const char* name = nullptr;
        if (level == 0 && k == Tok::Plus)
            name = "_+_";
        else if (level == 0 && k == Tok::Minus)
            name = "_-_";
        else if (level == 1 && k == Tok::Star)
            name = "_*_";
        else if (level == 1 && k == Tok::Slash)
            name = "_/_";
        else if (level == 1 && k == Tok::Percent)
            name = "_%_";
        else
            return left;
        const std::uint32_t pos = take().pos;
        const std::int32_t right = level == 0 ? binary(1) : unary();
        if (right < 0) return -1;
        const std::int32_t operands[] = {left, right};
        left = call(name, operands, pos, false);
    }
    return left;
}

std::int32_t Parser::unary() {
    const Tok k = peek().kind;
    if (k != Tok::Not && k != Tok::Minus) return member();
    const std::uint32_t pos = peek().pos;
    int count = 0;
    while (peek().kind == k) take(), ++count;
    if (k == Tok::Minus && count == 1 && (peek().kind == Tok::Int || peek().kind == Tok::Double)) {
        const std::int32_t number = numberLiteral(take(), true);
        return number < 0 ? -1 : suffixes(number);
    }
    const std::int32_t operand = member();
    if (operand < 0 || count % 2 == 0) return operand; // pairs cancel out, as cel-go's parser drops them
    Node n;
    n.kind = k == Tok::Not ? NodeKind::Not : NodeKind::Negate;
    n.pos = pos;
    n.a = operand;
    return add(n);
}

std::int32_t Parser::member() {
    const std::int32_t target = primary();
    return target < 0 ? -1 : suffixes(target);
}

bool Parser::qualifiedName(std::int32_t i, std::string& out) const {
    const Node& n = node(i);
    if (n.kind == NodeKind::Ident) {
        out = (n.aux ? "." : "") + std::string(m_out.nameOf(n.name));
        return true;
    }
    if (n.kind != NodeKind::Select || !qualifiedName(n.a, out)) return false;
    out += "." + std::string(m_out.nameOf(n.name));
    return true;
}

std::int32_t Parser::suffixes(std::int32_t target) {
    while (target >= 0) {
        if (peek().kind == Tok::Dot) {
            const std::uint32_t pos = take().pos;
            if (peek().kind == Tok::Question) return unsupported(pos, "optional field selection '.?'");
            if (peek().kind != Tok::Ident)
                return syntax(peek(), "expected a field name after '.' but found " + describeToken(peek()));
            const Token name = take();
            if (accept(Tok::LParen)) {
                std::vector<std::int32_t> args;
                if (!exprList(Tok::RParen, false, args)) return -1;
                target = memberCall(target, name, std::move(args));
                continue;
            }
            Node n;
            n.kind = NodeKind::Select;
            n.pos = name.pos;
            n.a = target;
            n.name = intern(name.text);
            target = add(n);
        } else if (peek().kind == Tok::LBracket) {
            Node n;
            n.kind = NodeKind::Index;
            n.pos = take().pos;
            if (peek().kind == Tok::Question) return unsupported(n.pos, "optional index '[?'");
            n.a = target;
            n.b = expr();
            if (n.b < 0 || !expect(Tok::RBracket, "']'")) return -1;
            target = add(n);
        } else if (std::string name; peek().kind == Tok::LBrace && qualifiedName(target, name)) {
            return unsupported(peek().pos, "message construction '" + name + "{...}'");
        } else {
            break;
        }
    }
    return target;
}

std::int32_t Parser::numberLiteral(const Token& t, bool negative) {
    if (t.kind == Tok::Double) return literal(Value::real(negative ? -t.real : t.real), t.pos);
    if (t.kind == Tok::Uint) return literal(Value::uinteger(t.number), t.pos);
    if (t.number > kInt64Max + (negative ? 1 : 0))
        return syntax(t,
                      "invalid int literal '" + std::string(m_source.substr(t.pos, t.end - t.pos)) + "': out of range");
    const std::int64_t value = negative ? static_cast<std::int64_t>(0 - t.number) : static_cast<std::int64_t>(t.number);
    return literal(Value::integer(value), t.pos);
}

bool Parser::exprList(Tok closer, bool trailingComma, std::vector<std::int32_t>& out) {
    if (accept(closer)) return true;
    while (true) {
        const std::int32_t e = expr();
        if (e < 0) return false;
        out.push_back(e);
        if (accept(closer)) return true;
        if (!expect(Tok::Comma, closer == Tok::RParen ? "',' or ')'" : "',' or ']'")) return false;
        if (trailingComma && accept(closer)) return true;
    }
}

// [a, b, ...] or {k: v, ...}, trailing comma allowed.
std::int32_t Parser::aggregate(bool map) {
    Node n;
    n.kind = map ? NodeKind::CreateMap : NodeKind::CreateList;
    n.pos = take().pos;
    const Tok closer = map ? Tok::RBrace : Tok::RBracket;
    std::vector<std::int32_t> items;
    if (!map) {
        if (peek().kind == Tok::Question) return unsupported(peek().pos, "optional list element '[?'");
        if (!exprList(closer, true, items)) return -1;
        return add(n, items);
    }
    while (!accept(closer)) {
        if (peek().kind == Tok::Question) return unsupported(peek().pos, "optional map entry '{?'");
        const std::int32_t key = expr();
        if (key < 0 || !expect(Tok::Colon, "':' after a map key")) return -1;
        const std::int32_t value = expr();
        if (value < 0) return -1;
        items.push_back(key);
        items.push_back(value);
        if (accept(closer)) break;
        if (!expect(Tok::Comma, "',' or '}'")) return -1;
    }
    return add(n, items);
}

std::int32_t Parser::primary() {
    const Token& t = peek();
    switch (t.kind) {
    case Tok::Dot:
    case Tok::Ident: {
        const bool rooted = accept(Tok::Dot);
        if (rooted && peek().kind != Tok::Ident)
            return syntax(peek(), "expected an identifier after '.' but found " + describeToken(peek()));
        const Token name = take();
        if (name.reserved) return syntax(name, "reserved identifier '" + name.text + "'");
        if (accept(Tok::LParen)) {
            std::vector<std::int32_t> args;
            if (!exprList(Tok::RParen, false, args)) return -1;
            return globalCall(name, std::move(args));
        }
        Node n;
        n.kind = NodeKind::Ident;
        n.pos = rooted ? t.pos : name.pos;
        n.aux = rooted ? 1 : 0;
        n.name = intern(name.text);
        return add(n);
    }
    case Tok::LParen: {
        take();
        const std::int32_t e = expr();
        return e < 0 || !expect(Tok::RParen, "')'") ? -1 : e;
    }
    case Tok::LBracket:
        return aggregate(false);
    case Tok::LBrace:
        return aggregate(true);
    case Tok::Int:
    case Tok::Uint:
    case Tok::Double:
        return numberLiteral(take(), false);
    case Tok::String:
    case Tok::Bytes: {
        const Token& s = take();
        m_out.texts.push_back(s.text);
        const std::string_view text = m_out.texts.back();
        return literal(s.kind == Tok::String ? Value::string(text) : Value::bytes(text), s.pos);
    }
    case Tok::True:
    case Tok::False:
        return literal(Value::boolean(take().kind == Tok::True), t.pos);
    case Tok::Null:
        return literal(Value(), take().pos);
    default:
        return syntax(t, "unexpected " + describeToken(t));
    }
}

std::optional<std::int32_t> Parser::simpleName(std::int32_t arg) {
    const Node& n = node(arg);
    if (n.kind != NodeKind::Ident || n.aux) {
        fail(n.pos, "Syntax error: argument must be a simple name");
        return std::nullopt;
    }
    return n.name;
}

std::int32_t Parser::globalCall(const Token& name, std::vector<std::int32_t> args) {
    if (name.text != "has") return call(name.text, args, name.pos, false);
    if (args.size() != 1) return syntax(name, "has() takes exactly one argument");
    const Node& field = node(args[0]);
    if (field.kind != NodeKind::Select) return fail(field.pos, "Syntax error: invalid argument to has() macro");
    Node n;
    n.kind = NodeKind::Has;
    n.pos = name.pos;
    n.a = field.a;
    n.name = field.name;
    return add(n);
}

std::int32_t Parser::comprehension(ComprehensionKind kind, std::int32_t range, std::span<const std::int32_t> args,
                                   const Token& name) {
    const std::optional<std::int32_t> variable = simpleName(args[0]);
    if (!variable) return -1;
    Node n;
    n.kind = NodeKind::Comprehension;
    n.aux = static_cast<std::uint8_t>(kind);
    n.pos = name.pos;
    n.a = range;
    n.name = *variable;
    n.b = args[1];
    if (kind == ComprehensionKind::Map) n.b = -1, n.c = args[1];
    if (kind == ComprehensionKind::MapFilter) n.c = args[2];
    return add(n);
}

std::int32_t Parser::memberCall(std::int32_t target, const Token& name, std::vector<std::int32_t> args) {
    const std::string& f = name.text;
    const bool quantified = f == "all" || f == "exists" || f == "exists_one" || f == "filter";
    if (quantified && f != "filter" && args.size() == 3) // cel-go's ext.TwoVarComprehensions
        return unsupported(name.pos, "two-variable comprehension '" + f + "(k, v, ...)'");
    if (quantified && args.size() == 2) {
        const ComprehensionKind kind = f == "all"      ? ComprehensionKind::All
                                       : f == "exists" ? ComprehensionKind::Exists
                                       : f == "filter" ? ComprehensionKind::Filter
                                                       : ComprehensionKind::ExistsOne;
        return comprehension(kind, target, args, name);
    }
    if (f == "map" && (args.size() == 2 || args.size() == 3))
        return comprehension(args.size() == 2 ? ComprehensionKind::Map : ComprehensionKind::MapFilter, target, args,
                             name);
    if (quantified || f == "map")
        return syntax(name, "the " + f + "() macro takes " + (f == "map" ? "two or three" : std::string("two")) +
                                " arguments");
    const Node& t = node(target);
    if (f == "bind" && t.kind == NodeKind::Ident && !t.aux && m_out.nameOf(t.name) == "cel") {
        if (args.size() != 3) return syntax(name, "cel.bind() takes three arguments");
        const std::optional<std::int32_t> variable = simpleName(args[0]);
        if (!variable) return -1;
        Node n;
        n.kind = NodeKind::Bind;
        n.pos = name.pos;
        n.name = *variable;
        n.a = args[1];
        n.b = args[2];
        return add(n);
    }
    args.insert(args.begin(), target);
    return call(f, args, name.pos, true);
}

Status Parser::run() {
    const std::int32_t root = expr();
    if (root >= 0 && peek().kind != Tok::End)
        syntax(peek(), "unexpected " + describeToken(peek()) + " after the expression");
    if (m_error) return *m_error;
    m_out.root = root;
    return {};
}

} // namespace

Status parseExpression(std::string_view source, ProgramData& out) {
    if (source.size() > kMaxExpressionBytes)
        return Error{"the expression is " + std::to_string(source.size()) + " bytes long, more than the " +
                     std::to_string(kMaxExpressionBytes) + " Kubernetes allows (CELSelectorExpressionMaxLength)"};
    Result<std::vector<Token>> tokens = tokenize(source);
    if (!tokens) return tokens.error();
    out.source = std::string(source);
    return Parser(out.source, std::move(*tokens), out).run();
}

} // namespace topodeck::cel
