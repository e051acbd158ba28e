#pragma once

#include <QColor>
#include <QSyntaxHighlighter>

namespace topodeck {

// Colours a diff as the terminal shows it (objectDiffText): a line whose text begins "- " (after
// its indentation) in the removed colour, "+ " in the added one, headings (unindented) bold.
class DiffHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit DiffHighlighter(QTextDocument* document);
    void setColours(const QColor& removed, const QColor& added);

protected:
    void highlightBlock(const QString& text) override;

private:
    QColor m_removed;
    QColor m_added;
};

} // namespace topodeck
