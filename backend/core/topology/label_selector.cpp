#include "core/topology/label_selector.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>

namespace topodeck {

namespace {

constexpr std::size_t kMaxNameLength = 63;    // a key's name part, and a value
constexpr std::size_t kMaxPrefixLength = 253; // a key's DNS subdomain prefix
constexpr std::size_t kMaxQuotedLength = 40;  // of a literal quoted in an error
constexpr std::size_t kLinearSearchValues = 8;

bool isAlphanumeric(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool isLowerAlphanumeric(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

// [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?, the shape of a key's name part and of a value.
bool isLabelName(std::string_view text) {
    if (text.empty() || !isAlphanumeric(text.front()) || !isAlphanumeric(text.back())) return false;
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return isAlphanumeric(c) || c == '-' || c == '_' || c == '.'; });
}

// A lowercase RFC 1123 subdomain: dot-separated labels of [a-z0-9-], each starting and ending
// with a letter or digit.
bool isDnsSubdomain(std::string_view text) {
    if (text.empty()) return false;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = text.find('.', start);
        const std::string_view part = text.substr(start, dot == std::string_view::npos ? text.npos : dot - start);
        if (part.empty() || !isLowerAlphanumeric(part.front()) || !isLowerAlphanumeric(part.back())) return false;
        if (!std::all_of(part.begin(), part.end(), [](char c) { return isLowerAlphanumeric(c) || c == '-'; }))
            return false;
        if (dot == std::string_view::npos) return true;
        start = dot + 1;
    }
}

// A literal as an error quotes it: shortened, with control characters spelled out.
std::string quoted(std::string_view text) {
    std::string out = "'";
    const std::size_t shown = std::min(text.size(), kMaxQuotedLength);
    for (char c : text.substr(0, shown)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7F) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02X", byte);
            out += escaped;
        } else {
            out += c;
        }
    }
    if (shown < text.size()) out += "...";
    return out + "'";
}

std::optional<std::int64_t> wholeNumber(std::string_view text) {
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
    return value;
}

enum class TokenKind { End, Identifier, Bang, Equals, DoubleEquals, NotEquals, Open, Close, Comma, Greater, Less };

struct Token {
    TokenKind kind = TokenKind::End;
    std::string_view text;
    std::size_t offset = 0;
};

// Kubernetes' lexer: blanks separate tokens, = ! ( ) , > < are symbols (== and != are one), and any
// other run of bytes is an identifier, which validation then judges.
bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
bool isSymbol(char c) {
    return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
}

class Parser {
public:
    explicit Parser(std::string_view text) : m_text(text) { advance(); }

    Status selector(std::vector<LabelRequirement>& out);
    Result<LabelRequirement> requirement();

    const Token& token() const { return m_token; }
    void advance();

private:
    Result<LabelRequirement> singleValue(LabelRequirement r, std::string_view op);
    Result<LabelRequirement> number(LabelRequirement r, std::string_view op);
    Result<LabelRequirement> valueSet(LabelRequirement r, std::string_view op);
    Error errorHere(const std::string& what) const { return errorAt(m_token.offset, what); }
    static Error errorAt(std::size_t offset, const std::string& what) {
        return Error{"at " + std::to_string(offset + 1) + ": " + what};
    }
    std::string found() const { return m_token.kind == TokenKind::End ? std::string("the end") : quoted(m_token.text); }
    bool atRequirementEnd() const { return m_token.kind == TokenKind::End || m_token.kind == TokenKind::Comma; }

    std::string_view m_text;
    std::size_t m_pos = 0;
    Token m_token;
};

void Parser::advance() {
    while (m_pos < m_text.size() && isBlank(m_text[m_pos])) ++m_pos;
    const std::size_t start = m_pos;
    if (m_pos == m_text.size()) {
        m_token = {TokenKind::End, {}, start};
        return;
    }
    const char c = m_text[m_pos];
    const bool equalsNext = m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '=';
    TokenKind kind = TokenKind::Identifier;
    std::size_t length = 1;
    switch (c) {
    case '=':
        kind = equalsNext ? TokenKind::DoubleEquals : TokenKind::Equals;
        length = equalsNext ? 2 : 1;
        break;
    case '!':
        kind = equalsNext ? TokenKind::NotEquals : TokenKind::Bang;
        length = equalsNext ? 2 : 1;
        break;
    case '(':
        kind = TokenKind::Open;
        break;
    case ')':
        kind = TokenKind::Close;
        break;
    case ',':
        kind = TokenKind::Comma;
        break;
    case '>':
        kind = TokenKind::Greater;
        break;
    case '<':
        kind = TokenKind::Less;
        break;
    default:
        length = 0;
        while (m_pos + length < m_text.size() && !isBlank(m_text[m_pos + length]) && !isSymbol(m_text[m_pos + length]))
            ++length;
    }
    m_pos += length;
    m_token = {kind, m_text.substr(start, length), start};
}

Result<LabelRequirement> Parser::requirement() {
    LabelRequirement r;
    const bool absent = m_token.kind == TokenKind::Bang;
    if (absent) advance();
    if (m_token.kind != TokenKind::Identifier)
        return errorHere(
            std::string(absent ? "expected a label key after '!', found " : "expected a label key, found ") + found());
    if (const std::string problem = labelKeyProblem(m_token.text); !problem.empty())
        return errorHere("invalid label key " + quoted(m_token.text) + ": " + problem);
    r.key = std::string(m_token.text);
    advance();
    if (absent) {
        r.op = LabelOperator::DoesNotExist;
        if (!atRequirementEnd())
            return errorHere("expected ',' or the end after '!" + r.key + "', found " + found() +
                             " ('!key' takes no operator or value)");
        return r;
    }
    const std::string_view op = m_token.text;
    switch (m_token.kind) {
    case TokenKind::End:
    case TokenKind::Comma:
        r.op = LabelOperator::Exists;
        return r;
    case TokenKind::Equals:
    case TokenKind::DoubleEquals:
        r.op = LabelOperator::Equals;
        advance();
        return singleValue(std::move(r), op);
    case TokenKind::NotEquals:
        r.op = LabelOperator::NotEquals;
        advance();
        return singleValue(std::move(r), op);
    case TokenKind::Greater:
    case TokenKind::Less:
        r.op = m_token.kind == TokenKind::Greater ? LabelOperator::GreaterThan : LabelOperator::LessThan;
        advance();
        return number(std::move(r), op);
    case TokenKind::Identifier:
        if (op == "in" || op == "notin") {
            r.op = op == "in" ? LabelOperator::In : LabelOperator::NotIn;
            advance();
            return valueSet(std::move(r), op);
        }
        break;
    default:
        break;
    }
    return errorHere("expected an operator (=, ==, !=, in, notin, >, <), ',' or the end after " + quoted(r.key) +
                     ", found " + found());
}

Result<LabelRequirement> Parser::singleValue(LabelRequirement r, std::string_view op) {
    if (atRequirementEnd()) {
        r.values = {std::string()}; // `key=` is the empty value
        return r;
    }
    if (m_token.kind != TokenKind::Identifier)
        return errorHere("expected a value after '" + std::string(op) + "', found " + found());
    if (const std::string problem = labelValueProblem(m_token.text); !problem.empty())
        return errorHere("invalid value " + quoted(m_token.text) + " for " + quoted(r.key) + ": " + problem);
    r.values = {std::string(m_token.text)};
    advance();
    return r;
}

Result<LabelRequirement> Parser::number(LabelRequirement r, std::string_view op) {
    const bool digits =
        m_token.kind == TokenKind::Identifier &&
        std::all_of(m_token.text.begin(), m_token.text.end(), [](char c) { return c >= '0' && c <= '9'; });
    const std::optional<std::int64_t> bound = digits ? wholeNumber(m_token.text) : std::nullopt;
    if (!bound || m_token.text.size() > kMaxNameLength)
        return errorHere("expected a whole number (at most 2^63 - 1) after '" + std::string(op) + "', found " +
                         found());
    r.values = {std::string(m_token.text)};
    r.bound = *bound;
    advance();
    return r;
}

Result<LabelRequirement> Parser::valueSet(LabelRequirement r, std::string_view op) {
    const std::string what = "the values of '" + std::string(op) + "'";
    if (m_token.kind != TokenKind::Open)
        return errorHere("expected '(' after '" + std::string(op) + "', found " + found());
    advance();
    // Like Kubernetes, an item between commas may be empty: it is the empty value, so `in ()` and
    // `in (a,)` hold the empty string.
    while (true) {
        bool named = false;
        if (m_token.kind == TokenKind::Identifier) {
            if (const std::string problem = labelValueProblem(m_token.text); !problem.empty())
                return errorHere("invalid value " + quoted(m_token.text) + " for " + quoted(r.key) + ": " + problem);
            r.values.emplace_back(m_token.text);
            named = true;
            advance();
        } else {
            r.values.emplace_back();
        }
        if (m_token.kind == TokenKind::Comma) {
            advance();
            continue;
        }
        if (m_token.kind == TokenKind::Close) {
            advance();
            break;
        }
        if (m_token.kind == TokenKind::End) return errorHere("expected ')' after " + what);
        if (named)
            return errorHere("expected ',' or ')' after " + quoted(r.values.back()) + " in " + what + ", found " +
                             found());
        return errorHere("expected a value, ',' or ')' in " + what + ", found " + found());
    }
    std::sort(r.values.begin(), r.values.end());
    r.values.erase(std::unique(r.values.begin(), r.values.end()), r.values.end());
    return r;
}

Status Parser::selector(std::vector<LabelRequirement>& out) {
    if (m_token.kind == TokenKind::End) return {};
    while (true) {
        Result<LabelRequirement> r = requirement();
        if (!r) return r.error();
        out.push_back(std::move(r).value());
        if (m_token.kind == TokenKind::End) return {};
        if (m_token.kind != TokenKind::Comma)
            return errorHere("expected ',' or the end after the requirement on " + quoted(out.back().key) + ", found " +
                             found());
        advance();
        if (m_token.kind == TokenKind::End) return errorHere("expected a requirement after ','");
    }
}

// Where key sits in labels, trying first where it sat on the previous node (hint).
const std::string* labelValue(const Labels& labels, const std::string& key, std::size_t& hint) {
    if (hint < labels.size() && labels[hint].first == key) return &labels[hint].second;
    const auto it = std::lower_bound(labels.begin(), labels.end(), key,
                                     [](const auto& label, const std::string& k) { return label.first < k; });
    if (it == labels.end() || it->first != key) return nullptr;
    hint = static_cast<std::size_t>(it - labels.begin());
    return &it->second;
}

template <class NodeAt> NodeMask matchEach(const LabelSelector& selector, std::size_t slots, NodeAt&& nodeAt) {
    NodeMask mask(slots, 0);
    const std::vector<LabelRequirement>& requirements = selector.requirements();
    std::vector<std::size_t> hints(requirements.size(), 0);
    for (std::size_t id = 0; id < slots; ++id) {
        const Node* node = nodeAt(id);
        if (!node) continue;
        bool all = true;
        for (std::size_t i = 0; all && i < requirements.size(); ++i)
            all = requirements[i].matches(labelValue(node->labels, requirements[i].key, hints[i]));
        mask[id] = all ? 1 : 0;
    }
    return mask;
}

} // namespace

std::string labelKeyProblem(std::string_view key) {
    std::string_view name = key;
    const std::size_t slash = key.find('/');
    if (slash != std::string_view::npos) {
        const std::string_view prefix = key.substr(0, slash);
        name = key.substr(slash + 1);
        if (prefix.empty()) return "the prefix before '/' is empty";
        if (prefix.size() > kMaxPrefixLength) return "the prefix is longer than 253 characters";
        if (!isDnsSubdomain(prefix))
            return "the prefix must be a lowercase DNS subdomain: dot-separated parts of a-z, 0-9 and '-', each "
                   "starting and ending with a letter or digit (e.g. 'example.com')";
        if (name.find('/') != std::string_view::npos) return "a key holds at most one '/'";
    }
    if (name.empty()) return "the name part is empty";
    if (name.size() > kMaxNameLength) return "the name part is longer than 63 characters";
    if (!isLabelName(name))
        return "the name must consist of letters, digits, '-', '_' or '.', and start and end with a letter or digit";
    return {};
}

std::string labelValueProblem(std::string_view value) {
    if (value.empty()) return {};
    if (value.size() > kMaxNameLength) return "a value is at most 63 characters long";
    if (!isLabelName(value))
        return "a value must consist of letters, digits, '-', '_' or '.', and start and end with a letter or digit";
    return {};
}

std::string nodeNameProblem(std::string_view name) {
    if (name.empty()) return "a node name is not empty";
    if (name.size() > kMaxPrefixLength) return "a node name is at most 253 characters long";
    if (!isDnsSubdomain(name))
        return "a node name must be a lowercase DNS subdomain: dot-separated parts of a-z, 0-9 and '-', each starting "
               "and ending with a letter or digit";
    return {};
}

bool LabelRequirement::matches(const std::string* value) const {
    auto contains = [this](const std::string& v) {
        if (values.size() <= kLinearSearchValues) return std::find(values.begin(), values.end(), v) != values.end();
        return std::binary_search(values.begin(), values.end(), v);
    };
    switch (op) {
    case LabelOperator::Exists:
        return value != nullptr;
    case LabelOperator::DoesNotExist:
        return value == nullptr;
    case LabelOperator::Equals:
    case LabelOperator::In:
        return value && contains(*value);
    case LabelOperator::NotEquals:
    case LabelOperator::NotIn:
        return !value || !contains(*value);
    case LabelOperator::GreaterThan:
    case LabelOperator::LessThan: {
        const std::optional<std::int64_t> number = value ? wholeNumber(*value) : std::nullopt;
        if (!number) return false;
        return op == LabelOperator::GreaterThan ? *number > bound : *number < bound;
    }
    }
    return false;
}

Result<LabelSelector> LabelSelector::parse(std::string_view text) {
    if (text.size() > kMaxLength)
        return Error{"the selector is " + std::to_string(text.size()) + " characters long; at most " +
                     std::to_string(kMaxLength) + " are accepted"};
    LabelSelector selector;
    Parser parser(text);
    if (Status parsed = parser.selector(selector.m_requirements); !parsed) return parsed.error();
    std::stable_sort(selector.m_requirements.begin(), selector.m_requirements.end(),
                     [](const LabelRequirement& a, const LabelRequirement& b) { return a.key < b.key; });
    return selector;
}

bool LabelSelector::matches(const Labels& labels) const {
    std::size_t hint = 0;
    return std::all_of(m_requirements.begin(), m_requirements.end(),
                       [&](const LabelRequirement& r) { return r.matches(labelValue(labels, r.key, hint)); });
}

std::string LabelSelector::toString() const {
    std::string out;
    for (const LabelRequirement& r : m_requirements) {
        if (!out.empty()) out += ',';
        auto joined = [&r] {
            std::string list;
            for (std::size_t i = 0; i < r.values.size(); ++i) list += (i == 0 ? "" : ",") + r.values[i];
            return list;
        };
        switch (r.op) {
        case LabelOperator::Exists:
            out += r.key;
            break;
        case LabelOperator::DoesNotExist:
            out += '!' + r.key;
            break;
        case LabelOperator::Equals:
            out += r.key + '=' + r.values.front();
            break;
        case LabelOperator::NotEquals:
            out += r.key + "!=" + r.values.front();
            break;
        case LabelOperator::In:
            out += r.key + " in (" + joined() + ')';
            break;
        case LabelOperator::NotIn:
            out += r.key + " notin (" + joined() + ')';
            break;
        case LabelOperator::GreaterThan:
            out += r.key + '>' + r.values.front();
            break;
        case LabelOperator::LessThan:
            out += r.key + '<' + r.values.front();
            break;
        }
    }
    return out;
}

NodeMask matchNodes(const LabelSelector& selector, const std::vector<std::shared_ptr<const Node>>& nodesById) {
    return matchEach(selector, nodesById.size(), [&](std::size_t id) { return nodesById[id].get(); });
}

NodeMask matchNodes(const LabelSelector& selector, const ClusterState& state) {
    return matchEach(selector, state.nodeSlots(), [&](std::size_t id) -> const Node* {
        const NodeRecord& record = state.record(static_cast<NodeId>(id));
        return record.present ? record.node.get() : nullptr;
    });
}

NodeMask matchNodes(const LabelSelector& selector, const std::vector<std::shared_ptr<const Node>>& nodesById,
                    const TopologyIndex& index) {
    const TopologySpec& spec = index.spec();
    const int labelledFrom = spec.membership ? spec.membership->levels : 0; // levels above are not labels
    // Each requirement's key resolved once: to a level of the hierarchy, to the NVLink domain, or
    // to the node's own labels.
    std::vector<std::vector<const LabelRequirement*>> byLevel(std::size_t(spec.depth()));
    std::vector<const LabelRequirement*> byNvlink;
    std::vector<const LabelRequirement*> byNode;
    for (const LabelRequirement& r : selector.requirements()) {
        int level = -1;
        for (int l = labelledFrom; l < spec.depth() && level < 0; ++l)
            if (spec.levels[std::size_t(l)].nodeLabel == r.key) level = l;
        if (level >= 0)
            byLevel[std::size_t(level)].push_back(&r);
        else if (!spec.nvlinkLabel.empty() && r.key == spec.nvlinkLabel)
            byNvlink.push_back(&r);
        else
            byNode.push_back(&r);
    }
    auto all = [](const std::vector<const LabelRequirement*>& requirements, const std::string* value) {
        return std::all_of(requirements.begin(), requirements.end(),
                           [value](const LabelRequirement* r) { return r->matches(value); });
    };

    // A domain's own verdict (its level's requirements on its value), then each lowest domain's
    // with all its ancestors'.
    std::vector<std::uint8_t> ownOk(index.domainSlots(), 1);
    for (DomainId id = 0; id < index.domainSlots(); ++id) {
        const Domain& domain = index.domain(id);
        if (!domain.alive || domain.level < 0 || std::size_t(domain.level) >= byLevel.size()) continue;
        ownOk[id] = all(byLevel[std::size_t(domain.level)], domain.unlabelled ? nullptr : &domain.value) ? 1 : 0;
    }
    std::vector<std::uint8_t> leafOk(index.domainSlots(), 0);
    for (DomainId id = 0; id < index.domainSlots(); ++id) {
        const Domain& domain = index.domain(id);
        if (!domain.alive || domain.nodes.empty()) continue;
        bool ok = true;
        for (DomainId up = id; ok && up != kNoDomain; up = index.domain(up).parent) ok = ownOk[up] != 0;
        leafOk[id] = ok ? 1 : 0;
    }
    std::vector<std::uint8_t> nvlinkOk(index.nvlinkDomainCount(), 1);
    for (std::size_t n = 0; n < nvlinkOk.size(); ++n)
        nvlinkOk[n] = all(byNvlink, &index.nvlinkName(std::int32_t(n))) ? 1 : 0;
    const bool withoutNvlinkOk = all(byNvlink, nullptr);

    NodeMask mask(nodesById.size(), 0);
    std::vector<std::size_t> hints(selector.requirements().size(), 0);
    for (std::size_t id = 0; id < nodesById.size(); ++id) {
        const Node* node = nodesById[id].get();
        if (!node) continue;
        if (id >= index.nodeSlots() || index.node(NodeId(id)).leaf == kNoDomain) {
            // Not placed by the index (it should not happen for a present node): judge it by itself.
            mask[id] = selector.matches(*node) ? 1 : 0;
            continue;
        }
        const NodeStats& stats = index.node(NodeId(id));
        if (!leafOk[stats.leaf]) continue;
        if (!(stats.nvlinkDomain == kNoNvlinkDomain ? withoutNvlinkOk : nvlinkOk[std::size_t(stats.nvlinkDomain)]))
            continue;
        bool ok = true;
        for (std::size_t i = 0; ok && i < byNode.size(); ++i)
            ok = byNode[i]->matches(labelValue(node->labels, byNode[i]->key, hints[i]));
        mask[id] = ok ? 1 : 0;
    }
    return mask;
}

std::vector<std::uint32_t> matchesPerDomain(const TopologyIndex& index, const NodeMask& mask) {
    std::vector<std::uint32_t> counts(index.domainSlots(), 0);
    for (DomainId id = 0; id < index.domainSlots(); ++id) {
        const Domain& domain = index.domain(id);
        if (!domain.alive || domain.nodes.empty()) continue;
        std::uint32_t matched = 0;
        for (NodeId node : domain.nodes) matched += node < mask.size() && mask[node] ? 1 : 0;
        if (matched == 0) continue;
        for (DomainId up = id; up != kNoDomain; up = index.domain(up).parent) counts[up] += matched;
    }
    return counts;
}

} // namespace topodeck
