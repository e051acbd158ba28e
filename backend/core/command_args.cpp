#include "core/command_args.h"

#include "core/text_format.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>

namespace topodeck {
namespace {

const FlagSpec* findLong(const CommandSpec& spec, std::string_view name) {
    for (const FlagSpec& flag : spec.flags)
        if (flag.name == name) return &flag;
    return nullptr;
}

const FlagSpec* findShort(const CommandSpec& spec, char name) {
    for (const FlagSpec& flag : spec.flags)
        if (flag.shortName != 0 && flag.shortName == name) return &flag;
    return nullptr;
}

std::string seeHelp(const CommandSpec& spec) {
    return " (see 'topodeckctl " + spec.name + " --help')";
}

} // namespace

const std::string* ParsedArgs::value(std::string_view name) const {
    const auto it = m_values.find(name);
    return it == m_values.end() ? nullptr : &it->second;
}

std::vector<std::string> ParsedArgs::values(std::string_view name) const {
    std::vector<std::string> out;
    for (const auto& [flag, value] : m_given)
        if (flag == name) out.push_back(value);
    return out;
}

Result<ParsedArgs> parseArgs(const CommandSpec& spec, std::span<const std::string> args) {
    ParsedArgs parsed;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--") {
            parsed.m_positionals.insert(parsed.m_positionals.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                        args.end());
            break;
        }
        if (arg == "-h" || arg == "--help") {
            parsed.m_help = true;
            continue;
        }
        // "-" alone is a value (stdin), never a flag.
        if (arg.size() < 2 || arg[0] != '-') {
            parsed.m_positionals.push_back(arg);
            continue;
        }

        const FlagSpec* flag = nullptr;
        std::string shown; // the flag as the user wrote it, for messages
        std::optional<std::string> inlineValue;
        if (arg[1] == '-') {
            const std::string_view body = std::string_view(arg).substr(2);
            const std::size_t eq = body.find('=');
            const std::string_view name = body.substr(0, eq);
            shown = "--" + std::string(name);
            if (eq != std::string_view::npos) inlineValue = std::string(body.substr(eq + 1));
            flag = findLong(spec, name);
        } else {
            shown = arg.substr(0, 2);
            flag = findShort(spec, arg[1]);
            if (arg.size() > 2) inlineValue = arg.substr(arg[2] == '=' ? 3 : 2);
        }
        if (flag == nullptr) return Error{"unknown flag " + shown + seeHelp(spec)};

        if (flag->valueName.empty()) {
            if (inlineValue) return Error{"flag " + shown + " takes no value"};
            parsed.m_values[flag->name] = std::string();
            continue;
        }
        if (inlineValue) {
            parsed.m_values[flag->name] = *inlineValue;
        } else if (i + 1 < args.size()) {
            parsed.m_values[flag->name] = args[++i];
        } else {
            return Error{"flag " + shown + " needs a value (" + flag->valueName + ")"};
        }
        parsed.m_given.emplace_back(flag->name, parsed.m_values[flag->name]);
    }
    return parsed;
}

std::string helpText(const CommandSpec& spec) {
    std::string out = spec.description + "\n\nUsage:\n  " + spec.usage + "\n";
    if (!spec.examples.empty()) out += "\nExamples:\n" + spec.examples;

    std::vector<std::pair<std::string, std::string>> rows;
    for (const FlagSpec& flag : spec.flags) {
        std::string left = flag.shortName != 0 ? std::string("-") + flag.shortName + ", " : std::string("    ");
        left += "--" + flag.name;
        if (!flag.valueName.empty()) left += ' ' + flag.valueName;
        rows.emplace_back(std::move(left), flag.help);
    }
    rows.emplace_back("-h, --help", "show this help");
    std::size_t width = 0;
    for (const auto& row : rows) width = std::max(width, row.first.size());

    out += "\nFlags:\n";
    for (const auto& [left, help] : rows) {
        out += "  " + left + std::string(width - left.size() + 3, ' ');
        // Continuation lines of a long help text line up under its first line.
        for (const char c : help) {
            out += c;
            if (c == '\n') out += std::string(width + 5, ' ');
        }
        out += '\n';
    }
    return out;
}

Result<int> parseIntValue(std::string_view flag, std::string_view text, int min, int max) {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
        std::string range = max == std::numeric_limits<int>::max() ? ">= " + std::to_string(min)
                                                                   : std::to_string(min) + ".." + std::to_string(max);
        return Error{std::string(flag) + " wants a whole number " + range + ", not " + inQuotes(text)};
    }
    return value;
}

Result<double> parseSecondsValue(std::string_view flag, std::string_view text) {
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    // A trailing "s" is accepted because people write durations that way ("--interval 2s").
    std::string_view rest(end, static_cast<std::size_t>(text.data() + text.size() - end));
    if (rest == "s") rest = {};
    if (text.empty() || ec != std::errc() || !rest.empty() || !std::isfinite(value) || value < 0 || value > 86400)
        return Error{std::string(flag) + " wants seconds between 0 and 86400, e.g. 1 or 0.5, not " + inQuotes(text)};
    return value;
}

std::vector<std::string> splitList(std::string_view commaSeparated) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= commaSeparated.size()) {
        const std::size_t comma = std::min(commaSeparated.find(',', start), commaSeparated.size());
        std::string_view item = commaSeparated.substr(start, comma - start);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        if (!item.empty()) out.emplace_back(item);
        start = comma + 1;
    }
    return out;
}

// Shell words of one command: quotes, backslashes, line continuations and comments as sh reads
// them. Stops at the end of the command (an unescaped newline); `consumed` says where.
Result<std::vector<std::string>> shellLineWords(std::string_view text, std::size_t& consumed) {
    std::vector<std::string> words;
    std::string word;
    bool inWord = false;
    std::size_t i = 0;
    auto endWord = [&]() {
        if (inWord) words.push_back(std::move(word));
        word.clear();
        inWord = false;
    };
    while (i < text.size()) {
        const char c = text[i];
        if (c == '\\') {
            if (i + 1 < text.size() && text[i + 1] == '\n') {
                i += 2; // line continuation
                continue;
            }
            if (i + 1 < text.size()) word += text[i + 1];
            inWord = true;
            i += 2;
            continue;
        }
        if (c == '\'') {
            const std::size_t close = text.find('\'', i + 1);
            if (close == std::string_view::npos) return Error{"unmatched ' in the command line"};
            word.append(text.substr(i + 1, close - i - 1));
            inWord = true;
            i = close + 1;
            continue;
        }
        if (c == '"') {
            std::size_t j = i + 1;
            for (; j < text.size() && text[j] != '"'; ++j) {
                if (text[j] == '\\' && j + 1 < text.size() &&
                    (text[j + 1] == '"' || text[j + 1] == '\\' || text[j + 1] == '$' || text[j + 1] == '`' ||
                     text[j + 1] == '\n')) {
                    if (text[j + 1] != '\n') word += text[j + 1];
                    ++j;
                    continue;
                }
                word += text[j];
            }
            if (j >= text.size()) return Error{"unmatched \" in the command line"};
            inWord = true;
            i = j + 1;
            continue;
        }
        if (c == '\n') {
            endWord();
            consumed = i + 1;
            return words;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            endWord();
            ++i;
            continue;
        }
        if (c == '#' && !inWord) {
            while (i < text.size() && text[i] != '\n') ++i;
            continue;
        }
        word += c;
        inWord = true;
        ++i;
    }
    endWord();
    consumed = text.size();
    return words;
}

Result<std::vector<std::string>> splitCommandWords(std::string_view text) {
    std::vector<std::string> words;
    while (!text.empty()) {
        std::size_t consumed = 0;
        Result<std::vector<std::string>> line = shellLineWords(text, consumed);
        if (!line) return line.error();
        words.insert(words.end(), std::make_move_iterator(line->begin()), std::make_move_iterator(line->end()));
        text.remove_prefix(consumed);
    }
    return words;
}

namespace {

bool needsQuotes(std::string_view word) {
    if (word.empty()) return true;
    for (const char c : word)
        if (!(std::isalnum(static_cast<unsigned char>(c)) ||
              std::string_view("-_./=:,@%+").find(c) != std::string_view::npos))
            return true;
    return false;
}

} // namespace

std::string joinCommandWords(const std::vector<std::string>& words) {
    std::string line;
    for (const std::string& word : words) {
        if (!line.empty()) line += ' ';
        if (!needsQuotes(word)) {
            line += word;
            continue;
        }
        // Single quotes keep everything literal; a quote inside closes, escapes and reopens.
        line += '\'';
        for (const char c : word) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
        line += '\'';
    }
    return line;
}

} // namespace topodeck
