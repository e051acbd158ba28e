#include "core/formats/yaml_document.h"

#include "core/text/text_format.h"

#include <yaml.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

namespace topodeck {

namespace {

std::string at(std::string_view source, std::size_t line, std::size_t column) {
    return std::string(source) + ':' + std::to_string(line + 1) + ':' + std::to_string(column + 1);
}

// libyaml's reader errors (bad encoding) carry a byte offset, not a mark.
std::string atOffset(std::string_view source, std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    const std::string_view before = text.substr(0, offset);
    const std::size_t line = static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t lineStart = before.rfind('\n');
    return at(source, line, lineStart == std::string_view::npos ? offset : offset - lineStart - 1);
}

Error parserError(const yaml_parser_t& parser, std::string_view source, std::string_view text) {
    std::string message;
    if (parser.error == YAML_READER_ERROR) {
        message = atOffset(source, text, parser.problem_offset) +
                  ": invalid YAML: " + (parser.problem ? parser.problem : "unreadable text");
        if (parser.problem_value >= 0) {
            char value[24];
            std::snprintf(value, sizeof value, parser.problem_value > 0xff ? " (U+%04X)" : " (byte 0x%02x)",
                          static_cast<unsigned>(parser.problem_value));
            message += value;
        }
        return Error{std::move(message)};
    }
    if (parser.error == YAML_MEMORY_ERROR) return Error{std::string(source) + ": invalid YAML: out of memory"};
    message = at(source, parser.problem_mark.line, parser.problem_mark.column) +
              ": invalid YAML: " + (parser.problem ? parser.problem : "malformed");
    if (parser.context)
        message += std::string(" (") + parser.context + " at " + std::to_string(parser.context_mark.line + 1) + ':' +
                   std::to_string(parser.context_mark.column + 1) + ')';
    return Error{std::move(message)};
}

struct ParserHandle {
    yaml_parser_t parser{};
    bool initialized = false;
    ParserHandle() { initialized = yaml_parser_initialize(&parser) == 1; }
    ~ParserHandle() {
        if (initialized) yaml_parser_delete(&parser);
    }
    ParserHandle(const ParserHandle&) = delete;
    ParserHandle& operator=(const ParserHandle&) = delete;
};

struct EventHandle {
    yaml_event_t event{};
    ~EventHandle() { yaml_event_delete(&event); }
};

const char* anchorOf(const yaml_event_t& event) {
    switch (event.type) {
    case YAML_SCALAR_EVENT:
        return reinterpret_cast<const char*>(event.data.scalar.anchor);
    case YAML_SEQUENCE_START_EVENT:
        return reinterpret_cast<const char*>(event.data.sequence_start.anchor);
    case YAML_MAPPING_START_EVENT:
        return reinterpret_cast<const char*>(event.data.mapping_start.anchor);
    default:
        return nullptr;
    }
}

std::string loadFailure(std::string_view source, const YAML::Exception& e) {
    std::string message(source);
    if (!e.mark.is_null()) message += ':' + std::to_string(e.mark.line + 1) + ':' + std::to_string(e.mark.column + 1);
    return message + ": invalid YAML: " + e.msg;
}

// libyaml's marks count characters (after a byte-order mark); the check below reads bytes. Events
// come in document order, so one cursor walks the text once.
class ByteCursor {
public:
    explicit ByteCursor(std::string_view text) : m_text(text) {
        if (text.starts_with("\xEF\xBB\xBF")) m_start = m_byte = 3;
    }
    std::size_t offsetOf(std::size_t characterIndex) {
        if (characterIndex < m_character) m_character = 0, m_byte = m_start;
        for (; m_character < characterIndex && m_byte < m_text.size(); ++m_character) {
            ++m_byte;
            while (m_byte < m_text.size() && (static_cast<unsigned char>(m_text[m_byte]) & 0xC0) == 0x80) ++m_byte;
        }
        return m_byte;
    }

private:
    std::string_view m_text;
    std::size_t m_start = 0;
    std::size_t m_character = 0;
    std::size_t m_byte = 0;
};

// Where an anchor or alias name ends, libyaml and yaml-cpp disagree: libyaml stops at the first
// character that is not a letter, digit, '-' or '_', yaml-cpp only at a blank, a line break or one
// of []{},. Text where the two read different names (`&kind:x`) is refused: yaml-cpp 0.7 loops
// forever on some of it. The node's mark is at its anchor or alias, or at a tag before the anchor.
Status checkNameEnd(std::string_view text, ByteCursor& cursor, const yaml_mark_t& mark, const char* name,
                    std::string_view source) {
    if (!name) return {};
    std::size_t pos = cursor.offsetOf(mark.index);
    if (pos < text.size() && text[pos] == '!') { // "!tag &anchor"
        while (pos < text.size() && text[pos] != ' ' && text[pos] != '\t' && text[pos] != '\n' && text[pos] != '\r')
            ++pos;
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r'))
            ++pos;
    }
    if (pos >= text.size() || (text[pos] != '&' && text[pos] != '*'))
        return {}; // not where expected: nothing to compare
    const std::size_t end = pos + 1 + std::char_traits<char>::length(name);
    if (end >= text.size() || std::string_view(" \t\r\n,[]{}").find(text[end]) != std::string_view::npos) return {};
    return Error{at(source, mark.line, mark.column) + ": invalid YAML: " + text[pos] + std::string(name) +
                 " runs on into '" + std::string(1, text[end]) +
                 "': end an anchor or alias name with a space (YAML readers disagree on where it ends)"};
}

// yaml-cpp 0.7 loops forever on a document whose top node is a plain scalar with an anchor or
// tag that continues on a later line beginning with ',' (`&a x` then `,`); libyaml reads "x ,".
bool loopsYamlCpp(const yaml_event_t& scalar) {
    const auto& data = scalar.data.scalar;
    if (data.style != YAML_PLAIN_SCALAR_STYLE || (!data.anchor && !data.tag)) return false;
    if (scalar.end_mark.line == scalar.start_mark.line) return false;
    return std::string_view(reinterpret_cast<const char*>(data.value), data.length).find(',') != std::string_view::npos;
}

} // namespace

Status checkYamlText(std::string_view text, std::string_view source, const YamlLimits& limits) {
    ParserHandle handle;
    if (!handle.initialized) return Error{std::string(source) + ": invalid YAML: out of memory"};
    // libyaml asserts on a null input, which an empty string_view may hold.
    static const unsigned char kNoText[1] = {0};
    const auto* input = text.empty() ? kNoText : reinterpret_cast<const unsigned char*>(text.data());
    yaml_parser_set_input_string(&handle.parser, input, text.size());

    // Each open collection counts the nodes it holds with its aliases expanded, so an alias
    // of it costs what repeating it would.
    // A mapping also keeps its scalar keys, which must differ: YAML says so, and Kubernetes
    // refuses a repeated key, while yaml-cpp would keep one of them silently (a ChangePlan object
    // with two `kind:` lines read as one kind and written as the other).
    struct Open {
        std::size_t nodes = 1;
        std::string anchor;
        bool mapping = false;
        std::size_t children = 0; // in a mapping: keys at even positions, values at odd
        std::vector<std::pair<std::string, std::size_t>> keys; // key, its line (the first few)
        std::unordered_map<std::string, std::size_t> keyLines; // all of them, once there are many
    };
    std::vector<Open> open;
    std::unordered_map<std::string, std::size_t> anchorNodes;
    std::size_t aliasNodes = 0;
    const std::size_t cap = limits.maxAliasNodes + 1; // sizes saturate here: no overflow
    auto closeNode = [&](std::size_t nodes, const char* anchor) {
        nodes = std::min(nodes, cap);
        if (anchor) anchorNodes[anchor] = nodes;
        if (!open.empty()) {
            open.back().nodes = std::min(cap, open.back().nodes + nodes);
            ++open.back().children;
        }
    };
    // A scalar key seen before in its mapping is an error. Most mappings have a few keys, looked
    // up in a vector; past kFewKeys a hash map takes over, so a mapping of many keys stays linear.
    constexpr std::size_t kFewKeys = 32;
    auto checkKey = [&](const yaml_event_t& event) -> Status {
        if (open.empty() || !open.back().mapping || open.back().children % 2 != 0) return {};
        Open& mapping = open.back();
        std::string key(reinterpret_cast<const char*>(event.data.scalar.value), event.data.scalar.length);
        std::optional<std::size_t> firstLine;
        if (mapping.keyLines.empty()) {
            const auto same = std::find_if(mapping.keys.begin(), mapping.keys.end(),
                                           [&](const auto& seen) { return seen.first == key; });
            if (same != mapping.keys.end()) firstLine = same->second;
        } else if (const auto same = mapping.keyLines.find(key); same != mapping.keyLines.end()) {
            firstLine = same->second;
        }
        if (firstLine)
            return Error{at(source, event.start_mark.line, event.start_mark.column) + ": invalid YAML: the key \"" +
                         visibleText(key) + "\" is repeated in its mapping (first on line " +
                         std::to_string(*firstLine + 1) + ")"};
        if (!mapping.keyLines.empty()) {
            mapping.keyLines.emplace(std::move(key), event.start_mark.line);
        } else {
            mapping.keys.emplace_back(std::move(key), event.start_mark.line);
            if (mapping.keys.size() > kFewKeys) {
                for (auto& [name, line] : mapping.keys) mapping.keyLines.emplace(std::move(name), line);
                mapping.keys.clear();
            }
        }
        return {};
    };

    ByteCursor cursor(text);
    while (true) {
        EventHandle current;
        if (yaml_parser_parse(&handle.parser, &current.event) != 1) return parserError(handle.parser, source, text);
        const yaml_event_t& event = current.event;
        const yaml_mark_t& mark = event.start_mark;
        // Marks count UTF-8 characters; other encodings are left to the readers' own checks.
        if (handle.parser.encoding == YAML_UTF8_ENCODING || handle.parser.encoding == YAML_ANY_ENCODING) {
            const char* name = event.type == YAML_ALIAS_EVENT ? reinterpret_cast<const char*>(event.data.alias.anchor)
                                                              : anchorOf(event);
            if (Status s = checkNameEnd(text, cursor, mark, name, source); !s) return s;
        }
        switch (event.type) {
        case YAML_STREAM_END_EVENT:
            return {};
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (open.size() >= limits.maxDepth)
                return Error{at(source, mark.line, mark.column) + ": invalid YAML: nested deeper than " +
                             std::to_string(limits.maxDepth) + " levels"};
            open.push_back({1, anchorOf(event) ? anchorOf(event) : "", event.type == YAML_MAPPING_START_EVENT, 0, {}, {}});
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: {
            Open closed = std::move(open.back());
            open.pop_back();
            closeNode(closed.nodes, closed.anchor.empty() ? nullptr : closed.anchor.c_str());
            break;
        }
        case YAML_SCALAR_EVENT:
            if (open.empty() && loopsYamlCpp(event))
                return Error{at(source, mark.line, mark.column) +
                             ": invalid YAML: a document that is one plain scalar with an anchor or tag, running on "
                             "over lines with a comma (YAML readers disagree on it); quote the scalar"};
            if (Status s = checkKey(event); !s) return s;
            closeNode(1, anchorOf(event));
            break;
        case YAML_ALIAS_EVENT: {
            const auto found = anchorNodes.find(reinterpret_cast<const char*>(event.data.alias.anchor));
            // An alias of an anchor not (yet) defined is yaml-cpp's to report.
            const std::size_t nodes = found == anchorNodes.end() ? 1 : found->second;
            aliasNodes = std::min(cap, aliasNodes + nodes);
            if (aliasNodes > limits.maxAliasNodes)
                return Error{at(source, mark.line, mark.column) + ": invalid YAML: aliases repeat more than " +
                             std::to_string(limits.maxAliasNodes) + " nodes"};
            closeNode(nodes, nullptr);
            break;
        }
        default:
            break;
        }
    }
}

Result<std::vector<YAML::Node>> loadYamlDocuments(std::string_view text, std::string_view source,
                                                  const YamlLimits& limits) {
    if (Status checked = checkYamlText(text, source, limits); !checked) return checked.error();
    try {
        return YAML::LoadAll(std::string(text));
    } catch (const YAML::Exception& e) {
        return Error{loadFailure(source, e)};
    }
}

Result<YAML::Node> loadYamlDocument(std::string_view text, std::string_view source, const YamlLimits& limits) {
    if (Status checked = checkYamlText(text, source, limits); !checked) return checked.error();
    try {
        return YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
        return Error{loadFailure(source, e)};
    }
}

} // namespace topodeck
