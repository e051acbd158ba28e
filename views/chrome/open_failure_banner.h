#pragma once

#include <QFrame>

class QLabel;

namespace topodeck {

// A band above the map for a file or cluster that could not be opened: the error where the user
// looked, with what is still shown (nothing that was open is lost), until dismissed or until
// something else opens.
class OpenFailureBanner : public QFrame {
    Q_OBJECT
public:
    explicit OpenFailureBanner(QWidget* parent = nullptr);
    // `source` could not be opened because of `message`; `stillShown` names what the window
    // keeps showing (empty: nothing).
    void showFailure(const QString& source, const QString& message, const QString& stillShown);
    QString text() const;

private:
    QLabel* m_text = nullptr;
};

} // namespace topodeck
