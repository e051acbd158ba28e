#include "core/text/json_writer.h"

#include "core/text/json_text.h"

#include <charconv>

namespace topodeck {

void JsonWriter::newLine(std::size_t depth) {
    m_out += '\n';
    m_out.append(depth * static_cast<std::size_t>(m_style.indent), ' ');
}

void JsonWriter::beforeValue() {
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_frames.empty()) return;
    Frame& frame = m_frames.back();
    if (!frame.empty) m_out += frame.layout == Layout::Inline && m_style.spaced ? ", " : ",";
    if (frame.layout == Layout::Block) newLine(m_frames.size());
    frame.empty = false;
}

JsonWriter& JsonWriter::begin(char bracket, Layout layout) {
    beforeValue();
    m_out += bracket;
    m_frames.push_back({layout});
    return *this;
}

JsonWriter& JsonWriter::beginObject(Layout layout) {
    return begin('{', layout);
}

JsonWriter& JsonWriter::beginArray(Layout layout) {
    return begin('[', layout);
}

JsonWriter& JsonWriter::end(char bracket) {
    const Frame frame = m_frames.back();
    m_frames.pop_back();
    if (frame.layout == Layout::Block && !frame.empty) newLine(m_frames.size());
    m_out += bracket;
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    beforeValue();
    appendJsonString(m_out, name);
    m_out += m_style.spaced ? ": " : ":";
    m_afterKey = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
    beforeValue();
    appendJsonString(m_out, text);
    return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
    return raw(flag ? "true" : "false");
}

JsonWriter& JsonWriter::integer(std::int64_t number) {
    beforeValue();
    char buffer[24];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, number);
    (void)ec; // 24 bytes always hold an int64
    m_out.append(buffer, end);
    return *this;
}

JsonWriter& JsonWriter::null() {
    return raw("null");
}

JsonWriter& JsonWriter::raw(std::string_view json) {
    beforeValue();
    m_out += json;
    return *this;
}

JsonWriter& JsonWriter::stringArray(const std::vector<std::string>& values) {
    beginArray();
    for (const std::string& text : values) value(text);
    return endArray();
}

} // namespace topodeck
