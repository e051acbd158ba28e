#include "views/pages/diff_highlighter.h"

#include <QFont>
#include <QTextCharFormat>

namespace topodeck {

DiffHighlighter::DiffHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {}

void DiffHighlighter::setColours(const QColor& removed, const QColor& added) {
    m_removed = removed;
    m_added = added;
    rehighlight();
}

void DiffHighlighter::highlightBlock(const QString& text) {
    if (text.isEmpty()) return;
    QTextCharFormat format;
    const QString content = text.trimmed();
    if (!text.front().isSpace())
        format.setFontWeight(QFont::Bold);
    else if (content.startsWith(QLatin1String("+ ")))
        format.setForeground(m_added);
    else if (content.startsWith(QLatin1String("- ")))
        format.setForeground(m_removed);
    else
        return;
    setFormat(0, int(text.size()), format);
}

} // namespace topodeck
