pm.sendRequest('x');
// pm.sendRequest
const a = require('lodash');
