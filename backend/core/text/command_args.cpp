#include "core/text/command_args.h"

#include "core/text/text_format.h"

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

namespace {

// One word read as a flag of the spec: which one (null when it names none), how the user wrote it
// (for messages) and a value written into the word itself (--name=VALUE, -nVALUE).
struct FlagWord {
    const FlagSpec* flag = nullptr;
    std::string shown;
    std::optional<std::string> inlineValue;
};

// Only for words that look like flags: at least two characters, starting with '-'.
FlagWord readFlagWord(const CommandSpec& spec, const std::string& arg) {
    FlagWord word;
    if (arg[1] == '-') {
        const std::string_view body = std::string_view(arg).substr(2);
        const std::size_t eq = body.find('=');
        const std::string_view name = body.substr(0, eq);
        word.shown = "--" + std::string(name);
        if (eq != std::string_view::npos) word.inlineValue = std::string(body.substr(eq + 1));
        word.flag = findLong(spec, name);
    } else {
        word.shown = arg.substr(0, 2);
        word.flag = findShort(spec, arg[1]);
        if (arg.size() > 2) word.inlineValue = arg.substr(arg[2] == '=' ? 3 : 2);
    }
    return word;
}

bool looksLikeFlag(const std::string& arg) {
    return arg.size() >= 2 && arg[0] == '-';
}

} // namespace

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
        if (!looksLikeFlag(arg)) {
            parsed.m_positionals.push_back(arg);
            continue;
        }

        const FlagWord word = readFlagWord(spec, arg);
        const FlagSpec* flag = word.flag;
        if (flag == nullptr) return Error{"unknown flag " + word.shown + seeHelp(spec)};

        if (flag->valueName.empty()) {
            if (word.inlineValue) return Error{"flag " + word.shown + " takes no value"};
            parsed.m_values[flag->name] = std::string();
            continue;
        }
        if (word.inlineValue) {
            parsed.m_values[flag->name] = *word.inlineValue;
        } else if (i + 1 < args.size()) {
            parsed.m_values[flag->name] = args[++i];
        } else {
            return Error{"flag " + word.shown + " needs a value (" + flag->valueName + ")"};
        }
        parsed.m_given.emplace_back(flag->name, parsed.m_values[flag->name]);
    }
    return parsed;
}

std::vector<FlagWords> scanFlagWords(const CommandSpec& spec, std::span<const std::string> words) {
    std::vector<FlagWords> out;
    for (std::size_t i = 0; i < words.size(); ++i) {
        FlagWords entry;
        entry.first = i;
        // After "--" every word is a positional, as parseArgs reads it.
        if (words[i] == "--") {
            for (; i < words.size(); ++i) out.push_back({nullptr, i, 1, {}});
            break;
        }
        if (looksLikeFlag(words[i])) {
            const FlagWord word = readFlagWord(spec, words[i]);
            // A switch written with a value is not the switch parseArgs would accept: kept as written.
            if (word.flag != nullptr && (!word.flag->valueName.empty() || !word.inlineValue)) {
                entry.flag = word.flag;
                if (word.inlineValue) {
                    entry.value = *word.inlineValue;
                } else if (!word.flag->valueName.empty() && i + 1 < words.size()) {
                    entry.value = words[++i];
                    entry.count = 2;
                }
            }
        }
        out.push_back(std::move(entry));
    }
    return out;
}

std::vector<std::string> flagValues(const CommandSpec& spec, std::span<const std::string> words,
                                    std::string_view name) {
    std::vector<std::string> values;
    for (const FlagWords& entry : scanFlagWords(spec, words))
        if (entry.flag != nullptr && entry.flag->name == name) values.push_back(entry.value);
    return values;
}

namespace {

// withFlagValues's work: `keep(first, count)` is called for the words of each entry that stays,
// `give(words)` once, where the flag's new words go.
template <class Keep, class Give>
void editFlag(const CommandSpec& spec, std::span<const std::string> words, std::string_view name,
              std::span<const std::string> values, Keep&& keep, Give&& give) {
    const FlagSpec* flag = findLong(spec, name);
    std::vector<std::string> given;
    for (const std::string& value : values) {
        given.push_back("--" + std::string(name));
        if (flag == nullptr || !flag->valueName.empty()) given.push_back(value);
    }
    const std::vector<FlagWords> entries = scanFlagWords(spec, words);
    const auto isFlag = [&](const FlagWords& entry) { return entry.flag != nullptr && entry.flag->name == name; };
    // Where the flag was first given; else before a "--" (which ends the flags), else at the end.
    auto at = std::find_if(entries.begin(), entries.end(), isFlag);
    if (at == entries.end())
        at = std::find_if(entries.begin(), entries.end(),
                          [&](const FlagWords& entry) { return entry.flag == nullptr && words[entry.first] == "--"; });
    for (auto it = entries.begin(); it != entries.end(); ++it) {
        if (it == at) give(given);
        if (!isFlag(*it)) keep(it->first, it->count);
    }
    if (at == entries.end()) give(given);
}

} // namespace

std::vector<std::string> withFlagValues(const CommandSpec& spec, std::span<const std::string> words,
                                        std::string_view name, std::span<const std::string> values) {
    std::vector<std::string> out;
    editFlag(
        spec, words, name, values,
        [&](std::size_t first, std::size_t count) {
            out.insert(out.end(), words.begin() + static_cast<std::ptrdiff_t>(first),
                       words.begin() + static_cast<std::ptrdiff_t>(first + count));
        },
        [&](const std::vector<std::string>& given) { out.insert(out.end(), given.begin(), given.end()); });
    return out;
}

Result<std::string> lineWithFlagValues(const CommandSpec& spec, std::string_view line, std::string_view name,
                                       std::span<const std::string> values) {
    auto written = splitCommandWordsAsWritten(line);
    if (!written) return written.error();
    std::vector<std::string> words;
    for (const WrittenWord& word : *written) words.push_back(word.word);
    // The flag's words are quoted afresh; the others are copied as they were written.
    std::string out;
    const auto append = [&](std::string_view text) {
        if (!out.empty()) out += ' ';
        out += text;
    };
    editFlag(
        spec, words, name, values,
        [&](std::size_t first, std::size_t count) {
            for (std::size_t w = first; w < first + count; ++w) append((*written)[w].written);
        },
        [&](const std::vector<std::string>& given) {
            if (!given.empty()) append(joinCommandWords(given));
        });
    return out;
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

std::string joinList(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items) {
        if (!out.empty()) out += ',';
        out += item;
    }
    return out;
}

namespace {

// shellLineWords, also noting where each word was written in `text` (when `spans` is not null).
Result<std::vector<std::string>> lineWords(std::string_view text, std::size_t& consumed,
                                           std::vector<std::pair<std::size_t, std::size_t>>* spans) {
    std::vector<std::string> words;
    std::string word;
    bool inWord = false;
    std::size_t wordStart = 0;
    std::size_t i = 0;
    auto startWord = [&]() {
        if (!inWord) wordStart = i;
        inWord = true;
    };
    auto endWord = [&]() {
        if (inWord) {
            words.push_back(std::move(word));
            if (spans) spans->emplace_back(wordStart, i);
        }
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
            startWord();
            if (i + 1 < text.size()) word += text[i + 1];
            i = std::min(i + 2, text.size());
            continue;
        }
        if (c == '\'') {
            const std::size_t close = text.find('\'', i + 1);
            if (close == std::string_view::npos) return Error{"unmatched ' in the command line"};
            startWord();
            word.append(text.substr(i + 1, close - i - 1));
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
            startWord();
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
        startWord();
        word += c;
        ++i;
    }
    endWord();
    consumed = text.size();
    return words;
}

} // namespace

// Shell words of one command: quotes, backslashes, line continuations and comments as sh reads
// them. Stops at the end of the command (an unescaped newline); `consumed` says where.
Result<std::vector<std::string>> shellLineWords(std::string_view text, std::size_t& consumed) {
    return lineWords(text, consumed, nullptr);
}

Result<std::vector<std::string>> splitCommandWords(std::string_view text) {
    auto spelled = splitCommandWordsAsWritten(text);
    if (!spelled) return spelled.error();
    std::vector<std::string> words;
    words.reserve(spelled->size());
    for (WrittenWord& word : *spelled) words.push_back(std::move(word.word));
    return words;
}

Result<std::vector<WrittenWord>> splitCommandWordsAsWritten(std::string_view text) {
    std::vector<WrittenWord> words;
    std::size_t offset = 0;
    while (offset < text.size()) {
        std::size_t consumed = 0;
        std::vector<std::pair<std::size_t, std::size_t>> spans;
        Result<std::vector<std::string>> line = lineWords(text.substr(offset), consumed, &spans);
        if (!line) return line.error();
        for (std::size_t w = 0; w < line->size(); ++w)
            words.push_back(
                {std::move((*line)[w]), text.substr(offset + spans[w].first, spans[w].second - spans[w].first)});
        offset += consumed;
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
