import { describeSessionRefresh } from "../../../testing/session-refresh-cases";
import { confirmTotp } from "./confirm-totp";
import { enrollTotp } from "./enroll-totp";
import { getSecondFactor } from "./get-second-factor";
import { regenerateRecoveryCodes } from "./regenerate-recovery-codes";
import { removeTotp } from "./remove-totp";

// Every call of the two-step sign-in page is an authenticated one.
describeSessionRefresh(() => getSecondFactor());
describeSessionRefresh(() => enrollTotp());
describeSessionRefresh(() => confirmTotp({ code: "123456" }));
describeSessionRefresh(() => removeTotp({ code: "123456" }));
describeSessionRefresh(() => regenerateRecoveryCodes({ code: "123456" }));
